import type { JSX } from 'react';
import * as s from './annotator.styles';

export interface BoxLimitStatusProps {
  count: number;
  max: number;
  /** How many edits the limit has refused: each one says it again. */
  refusals: number;
}

/**
 * A polite status that says the limit once it is reached, and again at each drawing it refuses. The
 * region is there before it has anything to say, so screen readers announce what appears in it; a
 * refusal replaces the message's node, which they announce anew.
 */
export function BoxLimitStatus({ count, max, refusals }: BoxLimitStatusProps): JSX.Element {
  const noun = max === 1 ? 'box' : 'boxes';
  const text =
    count > max
      ? `This task takes at most ${max} ${noun}: delete ${count - max} of these ${count}.`
      : `This task takes at most ${max} ${noun}. Delete one to draw another.`;
  return (
    <div role="status" data-testid="annotator-box-limit">
      {count >= max && (
        <p key={refusals} style={s.limitNotice}>
          {text}
        </p>
      )}
    </div>
  );
}
