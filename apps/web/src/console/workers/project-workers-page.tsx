import { Link, useParams } from 'react-router';
import { DateTime } from '../components/date-time';
import { LoadView } from '../components/load-view';
import { consoleApi, type ProjectWorkerRow } from '../lib/console-api';
import { formatCount, formatPercent, plural } from '../lib/format';
import { useLoad } from '../lib/use-load';
import { ProjectHeader } from '../projects/project-header';
import { taskListPath } from '../tasks/task-list-query';
import { BlockWorkerButton, useBlockWorker } from './use-block-worker';

/** Fewer compared tasks than this, and a worker's figures say little yet: the row says so. */
const FEW_COMPARED = 3;

/**
 * "the latest 3 completed tasks": the API reads the newest WORKER_STATS_TASKS, or fewer when their boxes
 * are very many (docs/decisions.md, "Worker agreement"), so a count below that is not all there are.
 */
function tasksReadText(tasksRead: number): string {
  return `the latest ${plural(tasksRead, 'completed task')}`;
}

/**
 * /console/projects/:uuid/workers: how each worker's boxes agree with the other workers of the same tasks,
 * lowest agreement first as the API orders them, so the careless worker is found at the top and blocked
 * from the row (useBlockWorker, as on a task's page). The figures are the server's (docs/decisions.md,
 * "Worker agreement"); this page only words them.
 */
export function ProjectWorkersPage() {
  const { projectUuid = '' } = useParams();
  const project = useLoad((signal) => consoleApi.project(projectUuid, signal), [projectUuid]);
  const stats = useLoad((signal) => consoleApi.projectWorkers(projectUuid, signal), [projectUuid]);
  const { ask, blocked, view } = useBlockWorker(projectUuid, stats.reload);
  const title = project.state.status === 'ok' ? project.state.data.display_name : 'Project';

  return (
    <div className="page">
      <ProjectHeader uuid={projectUuid} title={title} />
      <h2>Workers</h2>
      {/* Outside the list, so what a block did stays on screen whatever the list read again brings. */}
      {view}
      <LoadView state={stats.state} label="Loading the project’s workers" onRetry={stats.reload}>
        {({ tasks_read, workers }) =>
          tasks_read === 0 || workers.length === 0 ? (
            <div className="card cbc-empty" data-testid="project-workers-empty">
              <p>No task of this project is complete yet. Once tasks are, this page shows how well each worker’s boxes agree with the other workers’.</p>
            </div>
          ) : (
            <>
              <div className="cbc-lede" data-testid="project-workers-about">
                <p>
                  Read from {tasksReadText(tasks_read)} of this project. <strong>Agreement</strong> is how often a worker’s boxes match the boxes the other
                  workers of the same task drew; it can only be measured on tasks that others did too (compared tasks). The workers who agree least come
                  first.
                </p>
                <p className="muted">
                  Agreeing with the others is not the same as being right, and a worker with only one or two compared tasks is not yet telling.
                </p>
              </div>
              <div className="table-scroll card cbc-table-card">
                <table className="table cbc-workers-table" data-testid="project-workers-table">
                  <caption className="visually-hidden">Workers of this project, lowest agreement first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Worker</th>
                      <th scope="col" className="num">
                        Submissions
                      </th>
                      <th scope="col" className="num">
                        Compared tasks
                      </th>
                      <th scope="col" className="num">
                        Agreement
                      </th>
                      <th scope="col" className="num">
                        Their boxes others drew too
                      </th>
                      <th scope="col" className="num">
                        Others’ boxes they drew too
                      </th>
                      <th scope="col">Last submitted</th>
                      <th scope="col">
                        <span className="visually-hidden">Block</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {workers.map((row) => (
                      <WorkerRow key={row.worker} projectUuid={projectUuid} row={row} blockedNow={blocked.includes(row.worker)} onBlock={() => ask(row.worker)} />
                    ))}
                  </tbody>
                </table>
              </div>
            </>
          )
        }
      </LoadView>
    </div>
  );
}

function WorkerRow({ projectUuid, row, blockedNow, onBlock }: { projectUuid: string; row: ProjectWorkerRow; blockedNow: boolean; onBlock: () => void }) {
  return (
    <tr data-testid="project-worker-row">
      <td>
        {/* Looking at what a worker did is the step before blocking them, so their name leads to it. */}
        <Link to={taskListPath(projectUuid, { worker: row.worker })} className="cbc-mono" aria-label={`${row.worker}: their tasks`}>
          {row.worker}
        </Link>
      </td>
      <td className="num">{formatCount(row.submissions)}</td>
      <td className="num">
        {formatCount(row.compared_tasks)}
        {row.compared_tasks < FEW_COMPARED && <span className="muted"> (few)</span>}
      </td>
      <td className="num">{formatPercent(row.agreement)}</td>
      <td className="num">{formatPercent(row.precision)}</td>
      <td className="num">{formatPercent(row.recall)}</td>
      <td>
        <DateTime iso={row.last_submitted_at} />
      </td>
      <td>
        {/* A block made on this visit shows at once; the list read again after it has the block's id. */}
        {row.block_id !== null || blockedNow ? (
          <Link to="/console/workers" aria-label={`${row.worker} is blocked: see Blocked workers`}>
            blocked
          </Link>
        ) : (
          <BlockWorkerButton worker={row.worker} onClick={onBlock} />
        )}
      </td>
    </tr>
  );
}
