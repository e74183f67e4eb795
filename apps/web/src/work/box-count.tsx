import { LIMITS, type CheckoutResponse } from '@crowdbox/contracts';

/**
 * The most boxes a submission of this task may hold: the checkout's `max_boxes`, or, from an API that
 * predates it, the limit of every submission.
 */
export function maxBoxesOf(checkout: CheckoutResponse): number {
  return checkout.max_boxes ?? LIMITS.boxesPerSubmission;
}

/** From here on the count is shown as a warning: the last tenth of the maximum. */
const nearFrom = (max: number): number => Math.ceil(max * 0.9);

/**
 * The boxes drawn against the task's maximum, beside Submit ("12 / 200 boxes"): a warning once the
 * maximum is near, and at it, that it is the most. Beyond it (a draft kept from before the maximum, or
 * another tab's boxes) it says how many to delete: Submit waits until then, described by this (`id`).
 * The annotator itself announces the maximum when it is reached, so this is not a live region (it would
 * read out every box).
 */
export function BoxCount({ id, count, max }: { id?: string; count: number; max: number }) {
  const tone = count > max ? 'over' : count === max ? 'full' : count >= nearFrom(max) ? 'near' : 'ok';
  return (
    <p id={id} className={`box-count ${tone}`} data-testid="box-count" data-tone={tone}>
      <span className="box-count-figure">
        {count} / {max} {max === 1 ? 'box' : 'boxes'}
      </span>
      {tone === 'full' && <span> · the most this task takes</span>}
      {tone === 'over' && (
        <span>
          {' '}
          · this task takes at most {max}: delete {count - max} before you submit.
        </span>
      )}
    </p>
  );
}
