import type { TaskState } from '../lib/console-api';

const TEXT: Record<TaskState, string> = { incomplete: 'outstanding', complete: 'complete', cancelled: 'cancelled' };

export function TaskStateBadge({ state }: { state: TaskState }) {
  return <span className={`badge cbc-state cbc-state--${state}`}>{TEXT[state]}</span>;
}
