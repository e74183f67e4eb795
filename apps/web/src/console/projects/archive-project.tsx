import type { ConsoleProjectResponse } from '@crowdbox/contracts';
import { ErrorList } from '../../shell/error-list';
import { ConfirmDialog } from '../components/confirm-dialog';
import { consoleApi, type ProjectProgress } from '../lib/console-api';
import { plural } from '../lib/format';
import { useConfirmedRequest } from '../lib/use-confirmed-request';
import { useFreshProgress } from './use-fresh-progress';

interface Props {
  project: ConsoleProjectResponse;
  progress: ProjectProgress;
  onDone: () => void;
}

/**
 * "Archive project" (docs/decisions.md, "Archiving a project"): the confirmation says how many outstanding
 * tasks the archive cancels (read fresh when it opens, by useFreshProgress as cancel-outstanding.tsx
 * does), then the page reads the project again. An archived project shows this
 * section's Unarchive instead. A lost answer (`unsure`) re-reads the page too, so it shows what is so.
 */
export function ArchiveProject({ project, progress, onDone }: Props) {
  const archived = project.archived_at !== null;
  const confirmed = useConfirmedRequest(
    () => (archived ? consoleApi.unarchiveProject(project.uuid) : consoleApi.archiveProject(project.uuid)),
    onDone,
  );
  const { open, setOpen, busy, errors, setErrors, unsure, confirm } = confirmed;
  const { reading, fresh, openDialog } = useFreshProgress(project.uuid, progress, confirmed);
  const outstanding = fresh.tasks.outstanding;
  const unarchive = () => {
    if (busy) return;
    setErrors([]);
    void confirm();
  };

  const failed = archived
    ? unsure
      ? 'No answer from the server: the project may have been archived or unarchived. It is read again.'
      : 'Nothing was changed.'
    : unsure
      ? 'No answer from the server: the project may have been archived. It is read again.'
      : 'The project was not archived.';
  return (
    <section className="card cbc-danger-zone" aria-labelledby="archive-title">
      <h2 id="archive-title">{archived ? 'Archived project' : 'Archive this project'}</h2>
      {archived ? (
        <p>
          This project is archived: it is hidden from your project list, takes no new tasks (add_task answers 422) and is offered to
          no worker. Its tasks, results and exports stay readable. Unarchive it to add tasks again; the tasks the archive cancelled
          stay cancelled.
        </p>
      ) : (
        <p>
          Done with it? Archiving cancels its outstanding tasks, hides it from your project list and stops new tasks. Tasks, results
          and exports stay readable, and you can unarchive it later.
        </p>
      )}
      <ErrorList errors={errors} title={failed} />
      {archived ? (
        <button type="button" className="button" onClick={unarchive} aria-disabled={busy || undefined} data-testid="unarchive-project">
          {busy ? 'Unarchiving…' : 'Unarchive'}
        </button>
      ) : (
        <button type="button" className="button danger" onClick={openDialog} aria-disabled={reading || undefined} data-testid="archive-project">
          {reading ? 'Counting the outstanding tasks…' : 'Archive project'}
        </button>
      )}
      <ConfirmDialog
        open={open}
        danger
        busy={busy}
        title={`Archive ${project.display_name}?`}
        confirmLabel={outstanding > 0 ? `Archive and cancel ${plural(outstanding, 'task')}` : 'Archive'}
        cancelLabel="Keep it"
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      >
        {outstanding > 0 ? (
          <p data-testid="archive-summary">
            <strong>{plural(outstanding, 'outstanding task')}</strong> will be cancelled and leave the workers&apos; queue; workers
            holding one lose it at once. Cancelled tasks stay cancelled if you unarchive the project.
          </p>
        ) : (
          <p data-testid="archive-summary">No task is outstanding: nothing will be cancelled.</p>
        )}
        <p className="muted">The project leaves your project list and takes no new tasks until you unarchive it.</p>
      </ConfirmDialog>
    </section>
  );
}
