import { ErrorList } from '../../shell/error-list';
import { PROBLEM_TEXT } from '../../shell/problem-text';
import { ConfirmDialog } from '../components/confirm-dialog';
import { consoleApi, type CancelResult, type ConsoleTaskDetail } from '../lib/console-api';
import { plural } from '../lib/format';
import { formatCents } from '../../shell/format';
import { useConfirmedRequest } from '../lib/use-confirmed-request';
import { useFocusStatus } from '../lib/use-focus-status';

interface Props {
  projectUuid: string;
  task: ConsoleTaskDetail;
  /** Called after the server answered a cancel: the page reads the task again. */
  onDone: () => void;
}

/** What the server did, in words: "Task cancelled. $0.50 will not be paid; 1 worker's lease ended." */
export function cancelTaskResultText(result: CancelResult): string {
  if (result.cancelled === 0) return 'Nothing to cancel: the task was completed or cancelled meanwhile.';
  const leases = result.ended_checkouts === 0 ? 'no worker held it.' : `${plural(result.ended_checkouts, 'worker’s lease', 'workers’ leases')} ended.`;
  return `Task cancelled. ${formatCents(result.unspent_reward_cents)} will not be paid; ${leases}`;
}

/**
 * The task page's "Cancel this task" (docs/decisions.md, "Cancelling one task"), shown for an outstanding
 * task: the confirmation states the cost first (the missing submissions' reward, the workers holding it,
 * what workers reported), then the result says what the server did. The section stays after the task is
 * read again as cancelled, so the result keeps the focus; the button is gone. After a cancel without an
 * answer it stays too, with its error, and says what the re-read found once the task is no longer outstanding.
 */
export function CancelTask({ projectUuid, task, onDone }: Props) {
  const { open, setOpen, busy, result, errors, setErrors, unsure, resultRef, confirm } = useConfirmedRequest(
    () => consoleApi.cancelTask(projectUuid, task.task_uuid),
    onDone,
  );

  const outstanding = task.state === 'incomplete' && !result;
  // A cancel without an answer, after which the task is read again as no longer outstanding: the section
  // stays, its error with it, and says what the task is now; the sentence takes the focus from the button,
  // which is gone.
  const settled = unsure && !outstanding && !result ? task.state : null;
  const settledRef = useFocusStatus(settled);
  if (!outstanding && !result && !settled) return null;

  const missing = Math.max(0, task.required_submissions - task.submission_count);
  return (
    <section className="card cbc-danger-zone" aria-labelledby="cancel-task-title">
      <h2 id="cancel-task-title">Cancel this task</h2>
      {outstanding && (
        <p>
          Takes this task out of the workers&apos; queue and ends the checkouts on it. Submissions already made stay readable and
          paid.
        </p>
      )}
      {result && (
        <p className="alert success" role="status" tabIndex={-1} ref={resultRef} data-testid="cancel-task-result">
          {cancelTaskResultText(result)}
        </p>
      )}
      <ErrorList errors={errors} title={unsure ? 'No answer from the server: the task may have been cancelled. It is read again.' : 'The task was not cancelled.'} />
      {settled && (
        <p className="alert warning" role="status" tabIndex={-1} ref={settledRef} data-testid="cancel-task-settled">
          Read again: the task is {settled === 'cancelled' ? 'cancelled' : 'complete'}.
        </p>
      )}
      {outstanding && (
        <button
          type="button"
          className="button danger"
          onClick={() => {
            setErrors([]);
            setOpen(true);
          }}
          data-testid="cancel-task"
        >
          Cancel this task
        </button>
      )}
      <ConfirmDialog
        open={open}
        danger
        busy={busy}
        title="Cancel this task?"
        confirmLabel="Cancel the task"
        cancelLabel="Keep it"
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      >
        <p data-testid="cancel-task-summary">
          <strong>{formatCents(missing * task.reward)}</strong> of reward will not be paid: {plural(missing, 'missing submission')} ×{' '}
          {formatCents(task.reward)}.{' '}
          {task.active_checkouts > 0
            ? `${plural(task.active_checkouts, 'worker holds', 'workers hold')} it now; their work ends unsubmitted.`
            : 'No worker holds it now.'}
        </p>
        {task.problems.length > 0 && (
          <ul className="cbc-small" data-testid="cancel-task-problems">
            {task.problems.map((p) => (
              <li key={p.problem}>
                {plural(p.count, 'worker')} reported: {PROBLEM_TEXT[p.problem]}
              </li>
            ))}
          </ul>
        )}
        <p className="muted">
          {task.submission_count > 0 ? `The ${plural(task.submission_count, 'submission')} already made ${task.submission_count === 1 ? 'stays' : 'stay'} readable.` : 'It has no submissions yet.'} This
          cannot be undone.
        </p>
      </ConfirmDialog>
    </section>
  );
}
