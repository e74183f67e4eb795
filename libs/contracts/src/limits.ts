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
  /**
   * An absolute URL given to add_task (external_image_url, the image variable's value): a presigned S3
   * URL with an STS session token is often past 2 KB.
   */
  urlChars: 8192,
  /**
   * A callback_url, counted as sent (characters outside ASCII percent-encoded): an account's addresses
   * are unique in a btree index, whose entries must fit in about 2,700 bytes (docs/decisions.md, "URLs:
   * 8,192 characters, a callback address 2,048").
   */
  callbackUrlChars: 2048,
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
  /**
   * Boxes of all of a task's submissions together, which bounds its consensus's work (it grows with the
   * square of the boxes: docs/decisions.md, "A task holds at most 4,000 boxes"). Enforced per submission:
   * see maxBoxesPerSubmission.
   */
  boxesPerTask: 4000,
  imagePixels: 100_000,
} as const;

/**
 * The most boxes one submission of a task may hold: LIMITS.boxesPerSubmission, or less for a task of many
 * submissions, so that all of them together stay within LIMITS.boxesPerTask. It depends on the task
 * alone, so a worker knows it before drawing (`max_boxes` of a checkout) and no worker's submission is
 * refused because of what others sent.
 */
export function maxBoxesPerSubmission(requiredSubmissions: number): number {
  return Math.min(LIMITS.boxesPerSubmission, Math.floor(LIMITS.boxesPerTask / Math.max(1, requiredSubmissions)));
}
