import { ApiError } from '../api/client';
import { workApi } from '../api/work.api';

/**
 * Whether a refused submit says the boxes as a whole are refused (a 422 on `annotations` itself, not on
 * one box): more than the task takes (docs/decisions.md, "A task holds at most 4,000 boxes").
 */
export function refusedForBoxCount(error: unknown): boolean {
  return error instanceof ApiError && error.status === 422 && error.fieldError('annotations') !== undefined;
}

/**
 * The most boxes the task of this lease takes, as the server says now (GET /api/work/checkouts), or null
 * when the lease is no longer active, the server did not answer, or it does not say. A checkout from an
 * API that predated `max_boxes` did not say it; the one that refused the submit does.
 */
export async function currentMaxBoxes(checkoutId: string): Promise<number | null> {
  try {
    const active = await workApi.activeCheckouts();
    return active.find((c) => c.checkout_id === checkoutId)?.max_boxes ?? null;
  } catch {
    return null;
  }
}
