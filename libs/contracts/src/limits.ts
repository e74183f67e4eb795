/** Limits of the requester API (API.md §1, "Limits"). One place, read by validation and by the docs. */
export const LIMITS = {
  bodyBytes: 1024 * 1024,
  batchBodyBytes: 10 * 1024 * 1024,
  batchTasks: 1000,
  requiredSubmissions: { min: 1, max: 100 },
  rewardCents: { min: 0, max: 100_000 },
  completionSeconds: { min: 30, max: 86_400 },
  substitutions: 200,
  substitutionValueChars: 10_000,
  urlChars: 2048,
  templateChars: 100_000,
  /** A rendered prompt, in UTF-16 code units: the add_task body limit, as a count (docs/decisions.md). */
  promptChars: 1024 * 1024,
  /**
   * The prompts of one add_tasks batch together, in UTF-16 code units: 16 Mi, so a batch's prompts and
   * their echo in the answer stay tens of megabytes, where 1,000 prompts at the limit above are a gigabyte.
   */
  batchPromptChars: 16 * 1024 * 1024,
  labels: 50,
  labelChars: 64,
  /** Worker submissions: boxes per submission and the largest image side accepted, in pixels. */
  boxesPerSubmission: 500,
  imagePixels: 100_000,
} as const;
