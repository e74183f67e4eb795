import { Annotator } from '@crowdbox/annotator';
import { clampBox, type Box, type ImageSize } from '@crowdbox/boxes';
import type { CheckoutResponse } from '@crowdbox/contracts';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { ErrorList } from '../shell/error-list';
import { formatCents } from '../shell/format';
import { Countdown } from './countdown';
import { SkipConfirm } from './skip-confirm';
import { TaskPrompt } from './task-prompt';
import type { ActionFailure } from './lease-notices';
import type { Busy } from './use-task-lease';

export interface TaskWorkspaceProps {
  checkout: CheckoutResponse;
  initialBoxes: Box[];
  resumed: boolean;
  notice: ReactNode;
  busy: Busy;
  failure: ActionFailure | null;
  onSubmit: (checkout: CheckoutResponse, boxes: Box[], image: ImageSize) => void;
  onSkip: (checkout: CheckoutResponse) => void;
  onExpired: (checkout: CheckoutResponse, boxesDrawn: number) => void;
  /** Keeps the boxes as the task's draft, after every edit. */
  onDraft: (checkout: CheckoutResponse, boxes: Box[]) => void;
  /** Hears the boxes another tab on the same lease saved; returns the unsubscribe. */
  watchOtherTabs: (checkout: CheckoutResponse, onBoxes: (boxes: Box[]) => void) => () => void;
}

/** Integer pixel boxes inside the image, as the API takes them; boxes that round to nothing are dropped. */
export function toSubmittedBoxes(boxes: Box[], image: ImageSize): Box[] {
  return boxes.map((b) => clampBox(b, image)).filter((b) => b.width >= 1 && b.height >= 1);
}

/** One leased task: the image with the annotator, and beside it the prompt, the countdown, Submit and Skip. */
export function TaskWorkspace(props: TaskWorkspaceProps) {
  const { checkout, busy } = props;
  const [boxes, setBoxes] = useState<Box[]>(props.initialBoxes);
  const [image, setImage] = useState<ImageSize | null>(null);
  const boxCount = useRef(boxes.length);
  boxCount.current = boxes.length;

  const { onDraft } = props;
  const onChange = useCallback(
    (next: Box[]) => {
      setBoxes(next);
      onDraft(checkout, next);
    },
    [onDraft, checkout],
  );
  // Shown as they are, not saved again: the other tab has just saved them.
  const { watchOtherTabs } = props;
  useEffect(() => watchOtherTabs(checkout, setBoxes), [watchOtherTabs, checkout]);
  const { onExpired } = props;
  const expired = useCallback(() => onExpired(checkout, boxCount.current), [onExpired, checkout]);

  // Skip with boxes drawn asks first (skip-confirm.tsx); "Keep drawing" puts the focus back on Skip.
  const [confirmingSkip, setConfirmingSkip] = useState(false);
  const skipButton = useRef<HTMLButtonElement>(null);
  const refocusSkip = useRef(false);
  useEffect(() => {
    if (confirmingSkip || !refocusSkip.current) return;
    refocusSkip.current = false;
    skipButton.current?.focus();
  }, [confirmingSkip]);
  const { onSkip } = props;
  const skip = useCallback(() => {
    setConfirmingSkip(false);
    onSkip(checkout);
  }, [onSkip, checkout]);
  const keepDrawing = useCallback(() => {
    refocusSkip.current = true;
    setConfirmingSkip(false);
  }, []);

  const canSubmit = image !== null && busy === null;
  const restored = props.resumed && props.initialBoxes.length > 0;

  return (
    <div className="task-layout" data-testid="task-workspace" data-checkout-id={checkout.checkout_id}>
      <section className="task-canvas" aria-label="Task image">
        {checkout.external_image_url ? (
          <Annotator
            imageUrl={checkout.external_image_url}
            labels={checkout.labels}
            boxes={boxes}
            onChange={onChange}
            // While a submit or skip is out, what is sent is settled: a box drawn now would be dropped with the task.
            readOnly={busy !== null}
            onImageSize={setImage}
            className="task-annotator"
          />
        ) : (
          <div className="alert warning">This task has no image to annotate. Skip it to get another one.</div>
        )}
      </section>
      <aside className="task-side" aria-label="Task">
        {props.notice}
        <Countdown expiresAt={checkout.expires_at} onExpired={expired} />
        <div className="task-heading">
          <h1>Your task</h1>
          <span className="reward" title="Paid when you submit">
            {formatCents(checkout.reward)}
          </span>
        </div>
        {restored && (
          <p className="alert info" data-testid="draft-restored">
            Welcome back: the {props.initialBoxes.length} {props.initialBoxes.length === 1 ? 'box' : 'boxes'} you drew before{' '}
            {props.initialBoxes.length === 1 ? 'is' : 'are'} restored.
          </p>
        )}
        <section className="task-instructions" aria-labelledby="instructions-title">
          <h2 id="instructions-title">Instructions</h2>
          <TaskPrompt html={checkout.prompt} />
        </section>
        {props.failure && <ErrorList errors={props.failure.errors} title={props.failure.title} />}
        {confirmingSkip && busy === null ? (
          <SkipConfirm boxes={boxes.length} onSkip={skip} onKeep={keepDrawing} />
        ) : (
          <div className="task-actions">
            <button
              type="button"
              className="button primary"
              disabled={!canSubmit}
              onClick={() => image && props.onSubmit(checkout, toSubmittedBoxes(boxes, image), image)}
              data-testid="submit-task"
            >
              {busy === 'submit' ? 'Submitting…' : busy === 'check' ? 'Checking…' : `Submit ${boxes.length} ${boxes.length === 1 ? 'box' : 'boxes'}`}
            </button>
            <button
              ref={skipButton}
              type="button"
              className="button"
              disabled={busy !== null}
              onClick={() => (boxes.length > 0 ? setConfirmingSkip(true) : skip())}
              data-testid="skip-task"
            >
              {busy === 'skip' ? 'Skipping…' : 'Skip'}
            </button>
          </div>
        )}
        <p className="task-hint muted">
          Drag on the image to draw a box. Press <kbd>?</kbd> on the image for every keyboard shortcut. Your boxes are kept on this device
          until you submit.
        </p>
      </aside>
    </div>
  );
}
