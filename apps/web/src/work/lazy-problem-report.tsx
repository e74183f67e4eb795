import { lazy, Suspense } from 'react';
import type { ProblemReportProps } from './problem-report';

const load = () => import('./problem-report');

/** Fetches the panel's chunk early, when the worker points at or focuses an opener, so the panel opens at once. */
export function preloadProblemReport(): void {
  load().catch(() => undefined);
}

// A chunk that cannot be fetched (offline, or gone after a deploy while the task was open) must not
// take the task page down with it: the panel says so, and Cancel still leads back.
const Panel = lazy(() =>
  load().then(
    (m) => ({ default: m.ProblemReport }),
    () => ({
      default: ({ onCancel }: ProblemReportProps) => (
        <div className="alert warning" role="alert">
          <p>The report form did not load. Reload the page to try again, or use Skip.</p>
          <button type="button" className="button" onClick={onCancel} autoFocus>
            Cancel
          </button>
        </div>
      ),
    }),
  ),
);

/**
 * "Report a problem" (problem-report.tsx), loaded on first use: a report is rare, and the worker bundle
 * has a size budget (bench/web-bundle.mjs).
 */
export function LazyProblemReport(props: ProblemReportProps) {
  return (
    <Suspense fallback={<p className="muted">Loading…</p>}>
      <Panel {...props} />
    </Suspense>
  );
}
