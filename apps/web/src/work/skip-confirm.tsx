import { useId, type KeyboardEvent } from 'react';

interface Props {
  boxes: number;
  onSkip: () => void;
  onKeep: () => void;
}

/**
 * Asked in place of Submit and Skip when Skip would throw away drawn boxes: one click must not lose
 * them. In the page, not a modal, so the worker can still look at the boxes while deciding; the focus
 * starts on the safe answer, as the console's danger dialogs do, and Escape keeps the boxes.
 */
export function SkipConfirm({ boxes, onSkip, onKeep }: Props) {
  const titleId = useId();
  const them = boxes === 1 ? 'box' : 'boxes';
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape') return;
    // Answered here and nowhere else (the annotator deselects on Escape).
    e.stopPropagation();
    onKeep();
  };
  return (
    <div className="alert warning skip-confirm" role="group" aria-labelledby={titleId} onKeyDown={onKeyDown} data-testid="skip-confirm">
      <p id={titleId}>
        <strong>
          Skip this task and throw away your {boxes} {them}?
        </strong>
      </p>
      <p>They are not sent, and the task goes back to other workers.</p>
      <div className="task-actions">
        <button type="button" className="button" onClick={onKeep} autoFocus>
          Keep drawing
        </button>
        <button type="button" className="button danger" onClick={onSkip}>
          Skip and throw away {boxes} {them}
        </button>
      </div>
    </div>
  );
}
