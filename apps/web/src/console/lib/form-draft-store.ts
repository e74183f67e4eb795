/**
 * What a console form holds while it is being typed, kept in sessionStorage so that the log-in page a
 * 401 sends the user to (session expired, logged out in another tab, password changed elsewhere) does
 * not cost them a long template. Keyed by the signed-in user and the form's route: on a browser tab that
 * two people share, one never sees the other's draft. sessionStorage dies with the tab; a draft older
 * than MAX_DRAFT_AGE_MS is dropped when read, so nothing stale is offered.
 */
interface StoredDraft {
  value: unknown;
  saved_at: number;
  /** The version of the server's data the draft was typed over (a project's updated_at), if any. */
  base: string | null;
}

export type LoadedDraft<T> =
  | { status: 'restored'; value: T }
  /** A draft typed over data the server has changed since: dropped, so it cannot overwrite the newer data. */
  | { status: 'outdated' };

export const MAX_DRAFT_AGE_MS = 24 * 60 * 60 * 1000;

const PREFIX = 'crowdbox:form-draft:';

export const formDraftKey = (userId: string, route: string) => `${PREFIX}${userId}:${route}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function saveFormDraft(userId: string, route: string, value: unknown, base: string | null = null, now = Date.now()): void {
  const stored: StoredDraft = { value, saved_at: now, base };
  try {
    storage()?.setItem(formDraftKey(userId, route), JSON.stringify(stored));
  } catch {
    // Storage full or disabled: the draft is a convenience, the form still works.
  }
}

export function clearFormDraft(userId: string, route: string): void {
  storage()?.removeItem(formDraftKey(userId, route));
}

/**
 * This user's draft of the form at `route`, or null when there is none (or it is too old, or not what
 * `isValue` accepts). With `base`, a draft typed over another version of the server's data is dropped
 * and reported as outdated.
 */
export function loadFormDraft<T>(userId: string, route: string, isValue: (value: unknown) => value is T, base: string | null = null, now = Date.now()): LoadedDraft<T> | null {
  const raw = storage()?.getItem(formDraftKey(userId, route));
  if (!raw) return null;
  let stored: Partial<StoredDraft> | null = null;
  try {
    stored = JSON.parse(raw) as Partial<StoredDraft>;
  } catch {
    stored = null;
  }
  const age = now - Number(stored?.saved_at);
  if (!stored || !(age >= 0 && age <= MAX_DRAFT_AGE_MS) || !isValue(stored.value)) {
    clearFormDraft(userId, route);
    return null;
  }
  if ((stored.base ?? null) !== base) {
    clearFormDraft(userId, route);
    return { status: 'outdated' };
  }
  return { status: 'restored', value: stored.value };
}
