import { ErrorList } from '../../shell/error-list';
import { ConfirmDialog } from '../components/confirm-dialog';
import { consoleApi, type ProjectProgress } from '../lib/console-api';
import { plural } from '../lib/format';
import { formatCents } from '../../shell/format';
import { useConfirmedRequest } from '../lib/use-confirmed-request';
import { useFocusStatus } from '../lib/use-focus-status';
import { useFreshProgress } from './use-fresh-progress';

interface Props {
  projectUuid: string;
  progress: ProjectProgress;
  onDone: () => void;
}

/**
 * "Cancel outstanding tasks": the confirmation names how many tasks and how much unspent reward (read
 * fresh when it opens; when that read fails the dialog does not open, since the figures shown would be
 * old), then the result says what the server actually did.
 */
export function CancelOutstanding({ projectUuid, progress, onDone }: Props) {
  const confirmed = useConfirmedRequest(() => consoleApi.cancelOutstanding(projectUuid), onDone);
  const { open, setOpen, busy, result, errors, unsure, resultRef, confirm } = confirmed;
  const { reading, fresh, openDialog } = useFreshProgress(projectUuid, progress, confirmed);
  const figures = { outstanding: fresh.tasks.outstanding, committed: fresh.committed_cents };

  const outstanding = progress.tasks.outstanding;
  // A cancel without an answer leaves the focus on the button (the dialog gives it back), and the figures
  // read again disable it when the cancel was done: Chromium then drops the focus to the body. It goes to
  // the sentence that says nothing is left instead.
  const noneLeftRef = useFocusStatus(unsure && outstanding === 0);
  return (
    <section className="card cbc-danger-zone" aria-labelledby="cancel-title">
      <h2 id="cancel-title">Cancel outstanding tasks</h2>
      <p>
        Takes every task that is not complete out of the workers&apos; queue and ends the checkouts on them. Boxes already
        submitted stay readable and paid; completed tasks are not touched.
      </p>
      {result && (
        <p className="alert success" role="status" tabIndex={-1} ref={resultRef} data-testid="cancel-result">
          Cancelled {plural(result.cancelled, 'task')}; {plural(result.ended_checkouts, 'active checkout')} ended;{' '}
          {formatCents(result.unspent_reward_cents)} of reward will not be spent.
        </p>
      )}
      <ErrorList
        errors={errors}
        title={unsure ? 'No answer from the server: the tasks may have been cancelled. The figures are read again.' : 'Nothing was cancelled.'}
      />
      <button
        type="button"
        className="button danger"
        onClick={openDialog}
        disabled={outstanding === 0}
        aria-disabled={reading || undefined}
        data-testid="cancel-outstanding"
      >
        {reading ? 'Counting the outstanding tasks…' : 'Cancel outstanding tasks'}
      </button>
      {outstanding === 0 && (
        <p className="field-hint" tabIndex={-1} ref={noneLeftRef} data-testid="cancel-none-left">
          No outstanding tasks.
        </p>
      )}
      <ConfirmDialog
        open={open}
        danger
        busy={busy}
        canConfirm={figures.outstanding > 0}
        title={figures.outstanding > 0 ? `Cancel ${plural(figures.outstanding, 'outstanding task')}?` : 'No outstanding tasks left'}
        confirmLabel={figures.outstanding > 0 ? `Cancel ${plural(figures.outstanding, 'task')}` : 'Cancel tasks'}
        cancelLabel={figures.outstanding > 0 ? 'Keep them' : 'Close'}
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      >
        {figures.outstanding > 0 ? (
          <>
            <p data-testid="cancel-summary">
              <strong>{plural(figures.outstanding, 'task')}</strong> will leave the workers&apos; queue, and{' '}
              <strong>{formatCents(figures.committed)}</strong> of reward they would still have paid stays unspent.
            </p>
            <p className="muted">Workers holding one of these tasks lose it at once. This cannot be undone.</p>
          </>
        ) : (
          <p data-testid="cancel-summary">Every task was completed or cancelled since this page was loaded: there is nothing to cancel.</p>
        )}
      </ConfirmDialog>
    </section>
  );
}
