import type { Box, ImageSize } from '@crowdbox/boxes';

/**
 * The boxes drawn on a leased task, kept in localStorage so a reload (or a crash) resumes them.
 * Keyed by the signed-in user and the checkout id: on a browser that several workers share, each
 * one reads, keeps and settles only their own drafts. Cleared on submit, skip and expiry; drafts of
 * leases that are no longer active are settled with the server (settle-drafts.ts) whenever the list
 * of active leases is read, and when a project hands out a new task.
 */
export interface Draft {
  checkout_id: string;
  project_uuid: string;
  boxes: Box[];
  /** The size of the image the boxes were drawn on (image-frame.ts); missing in drafts saved before it was kept. */
  image?: ImageSize;
  saved_at: string;
}

const PREFIX = 'crowdbox:draft:';
const userPrefix = (userId: string) => `${PREFIX}${userId}:`;
// Outside PREFIX, so no list of drafts ever reads it.
const PROBE_KEY = 'crowdbox:draft-probe';
// Drafts saved before they were keyed by user: `crowdbox:draft:<checkout id>`. One is read only for
// the very checkout the server has just handed this user, so a draft of a lease in progress survives
// the upgrade and nobody else's draft is ever shown.
const legacyKey = (checkoutId: string) => PREFIX + checkoutId;

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function parse(raw: string | null | undefined): Draft | null {
  if (!raw) return null;
  try {
    const draft = JSON.parse(raw) as Draft;
    return Array.isArray(draft.boxes) ? draft : null;
  } catch {
    return null;
  }
}

export function loadDraft(userId: string, checkoutId: string): Draft | null {
  const store = storage();
  return parse(store?.getItem(userPrefix(userId) + checkoutId)) ?? parse(store?.getItem(legacyKey(checkoutId)));
}

/**
 * Keeps the draft; false when it could not be kept (storage full, turned off, or blocked for the
 * site), so the page can stop promising it. The task still works without it.
 */
export function saveDraft(userId: string, draft: Omit<Draft, 'saved_at'>): boolean {
  return write(userPrefix(userId) + draft.checkout_id, JSON.stringify({ ...draft, saved_at: new Date().toISOString() }));
}

/** Whether a draft can be kept now: a write of a probe key (removed at once) succeeds. */
export function canKeepDrafts(): boolean {
  if (!write(PROBE_KEY, '')) return false;
  storage()?.removeItem(PROBE_KEY);
  return true;
}

function write(key: string, value: string): boolean {
  const store = storage();
  if (!store) return false;
  try {
    store.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function clearDraft(userId: string, checkoutId: string): void {
  storage()?.removeItem(userPrefix(userId) + checkoutId);
  storage()?.removeItem(legacyKey(checkoutId));
}

/**
 * Calls `onSaved` with the draft of this checkout each time another tab or window of this browser saves
 * it (the `storage` event fires in every other document of the origin, never in the one that wrote).
 * Returns the unsubscribe.
 */
export function watchDraft(userId: string, checkoutId: string, onSaved: (draft: Draft) => void): () => void {
  const key = userPrefix(userId) + checkoutId;
  const listener = (e: StorageEvent): void => {
    if (e.key !== key || e.storageArea !== storage()) return;
    // Removed (submitted, skipped or ended there): this page learns what became of the lease from the server when it acts.
    const draft = parse(e.newValue);
    if (draft) onSaved(draft);
  };
  window.addEventListener('storage', listener);
  return () => window.removeEventListener('storage', listener);
}

/** Every stored draft of this user. */
export function userDrafts(userId: string): Draft[] {
  const store = storage();
  if (!store) return [];
  const prefix = userPrefix(userId);
  const drafts: Draft[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    const draft = key?.startsWith(prefix) ? parse(store.getItem(key)) : null;
    if (draft) drafts.push(draft);
  }
  return drafts;
}

/** This user's drafts of leases that are not in `activeCheckoutIds` (settle-drafts.ts asks what became of them). */
export function staleDrafts(userId: string, activeCheckoutIds: string[]): Draft[] {
  const active = new Set(activeCheckoutIds);
  return userDrafts(userId).filter((d) => !active.has(d.checkout_id));
}
