import type { Box } from '@crowdbox/boxes';

/**
 * The boxes drawn on a leased task, kept in localStorage under the checkout id so a reload (or a
 * crash) resumes them. Cleared on submit, skip and expiry; drafts of leases that are no longer
 * active are pruned whenever the list of active leases is read.
 */
export interface Draft {
  checkout_id: string;
  project_uuid: string;
  boxes: Box[];
  saved_at: string;
}

const PREFIX = 'crowdbox:draft:';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function loadDraft(checkoutId: string): Draft | null {
  const raw = storage()?.getItem(PREFIX + checkoutId);
  if (!raw) return null;
  try {
    const draft = JSON.parse(raw) as Draft;
    return Array.isArray(draft.boxes) ? draft : null;
  } catch {
    return null;
  }
}

export function saveDraft(draft: Omit<Draft, 'saved_at'>): void {
  try {
    storage()?.setItem(PREFIX + draft.checkout_id, JSON.stringify({ ...draft, saved_at: new Date().toISOString() }));
  } catch {
    // Storage full or disabled: the draft is a convenience, the task still works.
  }
}

export function clearDraft(checkoutId: string): void {
  storage()?.removeItem(PREFIX + checkoutId);
}

/** Every stored draft. */
export function allDrafts(): Draft[] {
  const store = storage();
  if (!store) return [];
  const drafts: Draft[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key?.startsWith(PREFIX)) {
      const draft = loadDraft(key.slice(PREFIX.length));
      if (draft) drafts.push(draft);
    }
  }
  return drafts;
}

/** Drops the drafts of leases that are not in `activeCheckoutIds`; returns what was dropped. */
export function pruneDrafts(activeCheckoutIds: string[]): Draft[] {
  const active = new Set(activeCheckoutIds);
  const stale = allDrafts().filter((d) => !active.has(d.checkout_id));
  for (const d of stale) clearDraft(d.checkout_id);
  return stale;
}
