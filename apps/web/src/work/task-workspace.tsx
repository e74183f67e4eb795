import { Annotator, EDITOR_KEYS_HERE, type ImageStatus } from '@crowdbox/annotator';
import type { Box, ImageSize } from '@crowdbox/boxes';
import type { CheckoutResponse, TaskProblem } from '@crowdbox/contracts';
import { useCallback, useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { ErrorList } from '../shell/error-list';
import { formatCents } from '../shell/format';
import { BoxCount, maxBoxesOf } from './box-count';
import { Countdown } from './countdown';
import { toSubmittedBoxes } from './image-frame';
import { LazyProblemReport, preloadProblemReport } from './lazy-problem-report';
import { SkipConfirm } from './skip-confirm';
import type { ActionFailure } from './lease-notices';
import { TaskPrompt } from './task-prompt';
import { useTaskBoxes, type TaskBoxesInput } from './use-task-boxes';
import type { Busy } from './use-task-lease';

export interface TaskWorkspaceProps extends TaskBoxesInput {
  resumed: boolean;
  notice: ReactNode;
  /** The task's heading (tabIndex -1): the page moves the focus there when a new task replaces the last. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  busy: Busy;
  failure: ActionFailure | null;
  /** `stop`: "Submit and stop", no next task. */
  onSubmit: (checkout: CheckoutResponse, boxes: Box[], image: ImageSize, stop: boolean) => void;
  /** Skip; with `problem`, "Report and skip". */
  onSkip: (checkout: CheckoutResponse, problem?: TaskProblem) => void;
  onExpired: (checkout: CheckoutResponse, boxesDrawn: number) => void;
}

/** One leased task: the image with the annotator, and beside it the prompt, the countdown, Submit, Skip and Report a problem. */
export function TaskWorkspace(props: TaskWorkspaceProps) {
  const { checkout, busy } = props;
  const { boxes, image, kept, onChange, onImageSize, current } = useTaskBoxes(props);
  const { onExpired } = props;
  const expired = useCallback(() => onExpired(checkout, current.current.length), [onExpired, checkout, current]);

  // Skip with boxes drawn asks first (skip-confirm.tsx); "Keep drawing" puts the focus back on Skip.
  const [confirmingSkip, setConfirmingSkip] = useState(false);
  // "Report a problem" (problem-report.tsx), opened by its button or, on image_broken, by the failed image's.
  const [reporting, setReporting] = useState<{ initial?: TaskProblem; opener: RefObject<HTMLButtonElement | null> } | null>(null);
  const skipButton = useRef<HTMLButtonElement>(null);
  const reportButton = useRef<HTMLButtonElement>(null);
  const brokenImageButton = useRef<HTMLButtonElement>(null);
  // The button to focus once the panel that replaced it is closed without sending (the actions come back new).
  const refocus = useRef<RefObject<HTMLButtonElement | null> | null>(null);
  useEffect(() => {
    if (confirmingSkip || reporting || !refocus.current) return;
    refocus.current.current?.focus();
    refocus.current = null;
  }, [confirmingSkip, reporting]);
  const { onSkip } = props;
  const skip = useCallback(() => {
    // The confirm's button goes with it: the focus goes to Skip ("Skipping…", then the error if it fails).
    refocus.current = skipButton;
    setConfirmingSkip(false);
    onSkip(checkout);
  }, [onSkip, checkout]);
  const keepDrawing = useCallback(() => {
    refocus.current = skipButton;
    setConfirmingSkip(false);
  }, []);
  const report = useCallback(
    (problem: TaskProblem) => {
      // The panel stays chosen while the report is out (the actions show "Skipping…" meanwhile): if it
      // fails, the panel is back with the reason chosen and the focus on it, beside the error, rather
      // than gone with the reason and the focus left on the page. A report that works ends this task.
      setReporting((open) => (open ? { ...open, initial: problem } : open));
      onSkip(checkout, problem);
    },
    [onSkip, checkout],
  );
  const cancelReport = useCallback(() => {
    refocus.current = reporting?.opener ?? null;
    setReporting(null);
  }, [reporting]);

  const maxBoxes = maxBoxesOf(checkout);
  // A draft kept from before the maximum (or another tab's boxes) may hold more: kept, not cut, but not sent.
  const tooMany = boxes.length > maxBoxes;
  const countId = useId();
  const imageErrorId = useId();
  // An image that failed (or never answered) says so beside Submit, which it keeps disabled.
  const [imageStatus, setImageStatus] = useState<ImageStatus>('loading');
  const imageFailed = imageStatus === 'error';
  // Busy (a submit or skip out) is aria-disabled, not disabled: a disabled button loses the focus to the
  // page's body, where the error of a failed try would find it. The other reasons disable them.
  const submitDisabled = image === null || tooMany;
  const isBusy = busy !== null;
  // Why both submit buttons are disabled, when they are for a reason the worker can act on.
  const submitBlockedBy = tooMany ? countId : imageFailed ? imageErrorId : undefined;
  // What Submit sends and counts: a box that lies wholly outside the image has nothing to send.
  const sendable = image ? toSubmittedBoxes(boxes, image) : boxes;
  const outside = boxes.length - sendable.length;
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
            maxBoxes={maxBoxes}
            onImageSize={onImageSize}
            onImageStatus={setImageStatus}
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
          {/* Focused after a task change so that it is read; the editor's keys still work from it. */}
          <h1 ref={props.headingRef} tabIndex={-1} {...EDITOR_KEYS_HERE}>
            Your task
          </h1>
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
        {outside > 0 && (
          <p className="alert warning" role="status" data-testid="boxes-outside">
            {outside === 1 ? '1 box lies' : `${outside} boxes lie`} outside the image and {outside === 1 ? 'is' : 'are'} not sent: move{' '}
            {outside === 1 ? 'it' : 'them'} onto the image, or delete {outside === 1 ? 'it' : 'them'}.
          </p>
        )}
        {imageFailed && (
          <div className="alert warning image-failed">
            <p id={imageErrorId} data-testid="image-failed">
              The image didn&rsquo;t load: Retry on the image, or Skip to get another task.
            </p>
            {/* Opens the panel on image_broken rather than reporting at once: the worker sees what is sent (the
                failure may be their own network) and, if boxes are drawn, that they go; one path for every report. */}
            <button
              ref={brokenImageButton}
              type="button"
              className="button small"
              aria-disabled={isBusy || undefined}
              onClick={() => !isBusy && setReporting({ initial: 'image_broken', opener: brokenImageButton })}
              onPointerEnter={preloadProblemReport}
              onFocus={preloadProblemReport}
              data-testid="report-broken-image"
            >
              Report broken image and skip
            </button>
          </div>
        )}
        {checkout.external_image_url && <BoxCount id={countId} count={boxes.length} max={maxBoxes} />}
        {confirmingSkip && busy === null ? (
          <SkipConfirm boxes={boxes.length} onSkip={skip} onKeep={keepDrawing} />
        ) : reporting && busy === null ? (
          <LazyProblemReport boxes={boxes.length} initial={reporting.initial} onReport={report} onCancel={cancelReport} />
        ) : (
          <div className="task-actions">
            <button
              type="button"
              className="button primary"
              disabled={submitDisabled}
              aria-disabled={isBusy || undefined}
              aria-describedby={submitBlockedBy}
              onClick={() => image && !isBusy && props.onSubmit(checkout, sendable, image, false)}
              data-testid="submit-task"
            >
              {busy === 'submit' ? 'Submitting…' : busy === 'check' ? 'Checking…' : `Submit ${sendable.length} ${sendable.length === 1 ? 'box' : 'boxes'}`}
            </button>
            {/* Done for now: no next lease holding a slot, unseen, for its whole time. */}
            <button
              type="button"
              className="button"
              disabled={submitDisabled}
              aria-disabled={isBusy || undefined}
              aria-describedby={submitBlockedBy}
              onClick={() => image && !isBusy && props.onSubmit(checkout, sendable, image, true)}
              data-testid="submit-and-stop"
            >
              Submit and stop
            </button>
            <button
              ref={skipButton}
              type="button"
              className="button"
              aria-disabled={isBusy || undefined}
              onClick={() => !isBusy && (boxes.length > 0 ? setConfirmingSkip(true) : skip())}
              data-testid="skip-task"
            >
              {busy === 'skip' ? 'Skipping…' : 'Skip'}
            </button>
            <button
              ref={reportButton}
              type="button"
              className="button"
              aria-disabled={isBusy || undefined}
              onClick={() => !isBusy && setReporting({ opener: reportButton })}
              onPointerEnter={preloadProblemReport}
              onFocus={preloadProblemReport}
              data-testid="report-problem"
            >
              Report a problem
            </button>
          </div>
        )}
        <p className="task-hint muted">
          {!imageFailed && 'Drag on the image (or press N) to draw a box. '}Press <kbd>?</kbd> on the image for every keyboard shortcut.
          {kept && ' Your boxes are kept on this device until you submit.'}
        </p>
        {!kept && (
          <p className="alert warning" role="status" data-testid="draft-not-kept">
            Your boxes are not being saved on this device (its storage is full or turned off): a reload or a closed tab loses them, so
            submit before you leave.
          </p>
        )}
      </aside>
    </div>
  );
}
