import type { Box } from '@crowdbox/boxes';
import type { LabelInfo } from '@crowdbox/contracts';
import { ApiError } from '../api/client';
import { workApi } from '../api/work.api';

const LABEL_FIELD = /^annotations\.(\d+)\.label$/;

/**
 * The labels of the sent `boxes` that a refused submit says the project does not have (its field
 * `annotations.N.label`), or null when nothing was refused for a label. The server checks the boxes
 * against the project's labels of now, which the requester may have changed since the checkout.
 */
export function refusedLabels(error: unknown, boxes: Box[]): string[] | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const refused = error.errors.map((e) => LABEL_FIELD.exec(e.field)).filter((m) => m !== null);
  if (refused.length === 0) return null;
  return [...new Set(refused.map((m) => boxes[Number(m[1])]?.label).filter((label) => label !== undefined))];
}

/**
 * The project's labels as they are now for this lease (GET /api/work/checkouts reads them afresh), or
 * null when the lease is no longer active or the server did not answer.
 */
export async function currentLabels(checkoutId: string): Promise<LabelInfo[] | null> {
  try {
    const active = await workApi.activeCheckouts();
    return active.find((c) => c.checkout_id === checkoutId)?.labels ?? null;
  } catch {
    return null;
  }
}

/** What to tell the worker, in plain words, after a submit refused for labels the project no longer has. */
export function labelsChangedMessage(refused: string[], boxes: Box[], labels: LabelInfo[] | null): string {
  const gone = refused.length > 0 ? ` (${refused.join(', ')})` : '';
  if (!labels) {
    return `Some of your boxes have a label this project no longer uses${gone}. Reload the page to get its current labels; your boxes are kept.`;
  }
  const names = new Set(labels.map((l) => l.name));
  const stale = boxes.filter((b) => !names.has(b.label)).length || 1;
  const which = stale === 1 ? '1 box has' : `${stale} boxes have`;
  return (
    `The requester changed the labels while you worked: ${which} a label this project no longer uses${gone}. ` +
    `Its labels are now: ${labels.map((l) => l.name).join(', ')}. Select each grey box, pick one of these labels, then submit again.`
  );
}
