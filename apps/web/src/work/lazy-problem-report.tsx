import { retryableImport } from '../shell/retryable-import';
import { useImported } from '../shell/use-imported';
import type { ProblemReportProps } from './problem-report';

const panel = retryableImport(() => import('./problem-report').then((m) => m.ProblemReport));

/** Fetches the panel's chunk early, when the worker points at or focuses an opener, so the panel opens at once. */
export function preloadProblemReport(): void {
  panel.load().catch(() => undefined);
}

/**
 * "Report a problem" (problem-report.tsx), loaded on first use: a report is rare, and the worker bundle
 * has a size budget (bench/web-bundle.mjs). A chunk that cannot be fetched (offline for a moment, or gone
 * after a deploy while the task was open) must not take the task page down with it, nor need a reload that
 * interrupts the work: the panel says so, Try again fetches it anew, and Cancel still leads back.
 */
export function LazyProblemReport(props: ProblemReportProps) {
  const { state, retry } = useImported(panel);
  if (state.status === 'loaded') return <state.value {...props} />;
  if (state.status === 'loading') return <p className="muted">Loading…</p>;
  return (
    <div className="alert warning" role="alert">
      <p>
        The report form did not load; your connection may have dropped. Try again, or Cancel to go back to the task. If it keeps
        failing, <a href={window.location.href}>reload the page</a>.
      </p>
      <div className="task-actions">
        {/* On the failure the focus goes here; a retry that works opens the panel, which takes it. */}
        <button type="button" className="button" onClick={retry} autoFocus>
          Try again
        </button>
        <button type="button" className="button" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
