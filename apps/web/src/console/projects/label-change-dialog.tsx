import type { ConsoleProjectResponse, LabelResponse } from '@crowdbox/contracts';
import { ConfirmDialog } from '../components/confirm-dialog';
import { consoleApi } from '../lib/console-api';
import { plural } from '../lib/format';
import { droppedLabels, type DroppedLabel } from '../lib/project-draft';

export interface LabelChange {
  dropped: DroppedLabel[];
  outstanding: number;
}

/**
 * What to confirm before saving `labels`: the saved labels they drop, when the project still has
 * outstanding tasks (read now, as the cancel dialog does). A worker drawing with a dropped label gets a
 * 422 at submit, so this is asked before, never after. Null when there is nothing to ask.
 */
export async function labelChangeToConfirm(project: ConsoleProjectResponse, labels: LabelResponse[]): Promise<LabelChange | null> {
  const dropped = droppedLabels(project.labels, labels);
  if (dropped.length === 0) return null;
  const { tasks } = await consoleApi.progress(project.uuid);
  return tasks.outstanding > 0 ? { dropped, outstanding: tasks.outstanding } : null;
}

interface Props {
  change: LabelChange | null;
  onConfirm: () => void;
  onClose: () => void;
}

/** Names the labels a save removes or renames and what that does to work in progress and to results. */
export function LabelChangeDialog({ change, onConfirm, onClose }: Props) {
  const count = change?.dropped.length ?? 0;
  return (
    <ConfirmDialog
      open={change !== null}
      danger
      title={`Remove or rename ${plural(count, 'label')} in use?`}
      confirmLabel="Save changes"
      cancelLabel="Keep editing"
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>
        This project has <strong>{plural(change?.outstanding ?? 0, 'outstanding task')}</strong>. Saving takes away:
      </p>
      <ul data-testid="dropped-labels">
        {change?.dropped.map((label) => (
          <li key={label.name}>
            &ldquo;{label.name}&rdquo; {label.renamedTo ? <>(renamed &ldquo;{label.renamedTo}&rdquo;)</> : '(removed)'}
          </li>
        ))}
      </ul>
      <p>
        Workers with a task checked out now who drew with {count === 1 ? 'it' : 'one of them'} are refused at submit (&ldquo;not a label of this
        project&rdquo;) and must draw those boxes again.
      </p>
      <p className="muted">Boxes already submitted keep the old name: results and the COCO export still list it.</p>
    </ConfirmDialog>
  );
}
