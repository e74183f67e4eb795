import { templateVariables, type ConsoleProjectResponse, type CreateProjectBody, type LabelResponse } from '@crowdbox/contracts';

/**
 * The project form's state. Inputs hold strings (what the user typed); `toProjectBody` turns them into the
 * request body, and the server's 422 answers point back at the same field names.
 */
export interface ProjectDraft {
  name: string;
  display_name: string;
  display_short_description: string;
  template: string;
  /** Every variable ever seen while editing, so a default survives a typo in the template. */
  variables: Record<string, VariableDraft>;
  labels: LabelResponse[];
  image_variable: string;
  default_required_submissions: string;
  default_reward: string;
  allowed_completion_time_seconds: string;
  consensus_iou_threshold: string;
}

export interface VariableDraft {
  /** Empty means "no default": every task must give a value. */
  default: string;
  /** Only for the preview; never sent. */
  sample: string;
}

/** Tableau 10, the server's palette for labels given without a colour. */
export const LABEL_COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];

export const EXAMPLE_TEMPLATE = `<h3>Draw a box around every [[object]]</h3>
<p>Cover the whole [[object]], edge to edge. Leave out reflections and pictures of [[object]]s.</p>`;

export function emptyDraft(): ProjectDraft {
  return {
    name: '',
    display_name: '',
    display_short_description: '',
    template: EXAMPLE_TEMPLATE,
    variables: {
      object: { default: 'car', sample: '' },
    },
    labels: [{ name: 'car', color: LABEL_COLORS[0] }],
    image_variable: 'image_url',
    default_required_submissions: '3',
    default_reward: '5',
    allowed_completion_time_seconds: '300',
    consensus_iou_threshold: '0.5',
  };
}

export function draftFromProject(project: ConsoleProjectResponse): ProjectDraft {
  const variables: Record<string, VariableDraft> = {};
  for (const [name, value] of Object.entries(project.variables)) variables[name] = { default: value ?? '', sample: '' };
  return {
    name: project.name,
    display_name: project.display_name,
    display_short_description: project.display_short_description,
    template: project.template,
    variables,
    labels: project.labels.map((l) => ({ ...l })),
    image_variable: project.image_variable,
    default_required_submissions: String(project.default_required_submissions),
    default_reward: String(project.default_reward),
    allowed_completion_time_seconds: String(project.allowed_completion_time_seconds),
    consensus_iou_threshold: String(project.consensus_iou_threshold),
  };
}

/** The draft's fields held as plain text, each shown by one input of the form under its API name. */
export const TEXT_FIELDS = [
  'name',
  'display_name',
  'display_short_description',
  'template',
  'image_variable',
  'default_required_submissions',
  'default_reward',
  'allowed_completion_time_seconds',
  'consensus_iou_threshold',
] as const;

/** Whether a value read back from storage (written by this or an older version of the app) is a whole ProjectDraft. */
export function isProjectDraft(value: unknown): value is ProjectDraft {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as Record<string, unknown>;
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  return (
    TEXT_FIELDS.every((f) => typeof d[f] === 'string') &&
    Array.isArray(d.labels) &&
    d.labels.every((l) => isObject(l) && typeof l.name === 'string' && typeof l.color === 'string') &&
    isObject(d.variables) &&
    Object.values(d.variables).every((v) => isObject(v) && typeof v.default === 'string' && typeof v.sample === 'string')
  );
}

/** The variables the form shows: those of the template, in order, plus the image variable. */
export function visibleVariables(draft: ProjectDraft): string[] {
  const names = templateVariables(draft.template);
  const image = draft.image_variable.trim();
  if (image && !names.includes(image)) names.push(image);
  return names;
}

export function variableDraft(draft: ProjectDraft, name: string): VariableDraft {
  return draft.variables[name] ?? { default: '', sample: '' };
}

/** What a variable shows in the preview: the sample, else the default, else its own placeholder name. */
export function previewValues(draft: ProjectDraft): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of visibleVariables(draft)) {
    const v = variableDraft(draft, name);
    values[name] = v.sample || v.default || `[${name}]`;
  }
  return values;
}

/** A number input's value as the API wants it; text that is not a number is sent as is, for the server to name. */
function numeric(value: string): number {
  const trimmed = value.trim();
  return trimmed === '' ? Number.NaN : Number(trimmed);
}

export function toProjectBody(draft: ProjectDraft): CreateProjectBody {
  const variables: Record<string, string | null> = {};
  const inTemplate = new Set(templateVariables(draft.template));
  for (const name of visibleVariables(draft)) {
    const value = variableDraft(draft, name).default;
    // Declared without a default, every task would have to give it; an image variable that the template
    // does not use stays optional (a task may give external_image_url instead).
    if (value === '' && !inTemplate.has(name)) continue;
    variables[name] = value === '' ? null : value;
  }
  return {
    name: draft.name.trim(),
    display_name: draft.display_name.trim(),
    display_short_description: draft.display_short_description.trim(),
    template: draft.template,
    variables,
    labels: draft.labels.map((l) => ({ name: l.name.trim(), color: l.color })),
    image_variable: draft.image_variable.trim() || 'image_url',
    default_required_submissions: numeric(draft.default_required_submissions),
    default_reward: numeric(draft.default_reward),
    allowed_completion_time_seconds: numeric(draft.allowed_completion_time_seconds),
    consensus_iou_threshold: numeric(draft.consensus_iou_threshold),
  };
}

/**
 * tasks x required submissions x reward, in cents; null while an input is not a whole number of at least
 * 0: the API takes whole tasks, submissions and cents, so "2.5 tasks" or a reward of 12.5 cents is no
 * batch it would charge for (12.5 showed as $0.13 while the total used 12.5).
 */
export function estimateCents(tasks: string, requiredSubmissions: string, rewardCents: string): number | null {
  const n = [tasks, requiredSubmissions, rewardCents].map((v) => Number(v.trim() === '' ? Number.NaN : v));
  if (n.some((v) => !Number.isInteger(v) || v < 0)) return null;
  return n[0] * n[1] * n[2];
}

export function nextLabelColor(labels: LabelResponse[]): string {
  const used = new Set(labels.map((l) => l.color.toLowerCase()));
  return LABEL_COLORS.find((c) => !used.has(c)) ?? LABEL_COLORS[labels.length % LABEL_COLORS.length];
}

/**
 * Whether the server's allowlist (sanitizeTemplate) changed a template in more than spelling: both are
 * read by the browser's parser first, so `<br>` against the stored `<br />` is no change, a dropped
 * `<details>` or a link given `rel` is.
 */
export function templateChangedBySave(typed: string, stored: string): boolean {
  const parsed = (html: string) => {
    const t = document.createElement('template');
    t.innerHTML = html;
    return t.innerHTML;
  };
  return typed !== stored && parsed(typed) !== parsed(stored);
}

export interface DroppedLabel {
  name: string;
  /** The name now in its place, when that name is new (most likely the same label renamed). */
  renamedTo?: string;
}

/** The saved labels that `labels` no longer has, in their order; whitespace is trimmed as the server does. */
export function droppedLabels(saved: LabelResponse[], labels: LabelResponse[]): DroppedLabel[] {
  const names = labels.map((l) => l.name.trim());
  const before = new Set(saved.map((l) => l.name));
  return saved
    .map((label, i) => ({ label, now: names[i] }))
    .filter(({ label }) => !names.includes(label.name))
    .map(({ label, now }) => (now && !before.has(now) ? { name: label.name, renamedTo: now } : { name: label.name }));
}
