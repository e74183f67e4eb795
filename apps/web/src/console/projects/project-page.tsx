import type { ConsoleProjectResponse } from '@crowdbox/contracts';
import { templateVariables } from '@crowdbox/contracts';
import { Link, useParams } from 'react-router';
import { DailyChart } from '../components/daily-chart';
import { FirstCall } from '../components/first-call';
import { LoadView } from '../components/load-view';
import { ProgressBar } from '../components/progress-bar';
import { Stat } from '../components/stat';
import { consoleApi, type ProjectProgress } from '../lib/console-api';
import { formatCount, plural } from '../lib/format';
import { formatCents, formatDuration } from '../../shell/format';
import { useLoad } from '../lib/use-load';
import { taskListPath } from '../tasks/task-list-query';
import { ArchiveProject } from './archive-project';
import { CancelOutstanding } from './cancel-outstanding';
import { ProjectHeader } from './project-header';

/** /console/projects/:uuid: progress, money, the daily chart, results downloads, cancelling and the first call. */
export function ProjectPage() {
  const { projectUuid = '' } = useParams();
  const { state, reload } = useLoad(
    async (signal) => {
      const [project, progress] = await Promise.all([consoleApi.project(projectUuid, signal), consoleApi.progress(projectUuid, signal)]);
      return { project, progress };
    },
    [projectUuid],
  );
  return (
    <div className="page">
      <LoadView state={state} label="Loading the project" onRetry={reload}>
        {({ project, progress }) => <Overview project={project} progress={progress} onChanged={reload} />}
      </LoadView>
    </div>
  );
}

function Overview({ project, progress, onChanged }: { project: ConsoleProjectResponse; progress: ProjectProgress; onChanged: () => void }) {
  const { tasks } = progress;
  const archived = project.archived_at !== null;
  const variables = [...new Set([...templateVariables(project.template), project.image_variable])].filter(
    (name) => name === project.image_variable || project.variables[name] === null,
  );
  return (
    <>
      <ProjectHeader
        uuid={project.uuid}
        title={project.display_name}
        actions={
          <>
            {archived && (
              <span className="badge" data-testid="archived-badge">
                Archived
              </span>
            )}
            <a className="button" href={consoleApi.resultsUrl(project.uuid, 'json')} download data-testid="download-json">
              Download JSON
            </a>
            <a className="button" href={consoleApi.resultsUrl(project.uuid, 'coco')} download data-testid="download-coco">
              Download COCO
            </a>
            <a className="button" href={consoleApi.resultsUrl(project.uuid, 'csv')} download data-testid="download-csv">
              Download CSV
            </a>
          </>
        }
      />
      <div className="cbc-overview">
        <section className="card cbc-overview__progress" aria-labelledby="progress-title">
          <h2 id="progress-title">Progress</h2>
          <ProgressBar complete={tasks.complete} outstanding={tasks.outstanding} cancelled={tasks.cancelled} />
          <dl className="cbc-stats" data-testid="progress-stats">
            <Stat label="Tasks" value={formatCount(tasks.total)} testId="stat-total" />
            <Stat label="Complete" value={formatCount(tasks.complete)} testId="stat-complete" />
            <Stat label="Outstanding" value={formatCount(tasks.outstanding)} testId="stat-outstanding" />
            <Stat label="Cancelled" value={formatCount(tasks.cancelled)} testId="stat-cancelled" />
            <Stat label="Submissions" value={formatCount(progress.submissions)} testId="stat-submissions" />
            <Stat label="Paid to workers" value={formatCents(progress.paid_cents)} testId="stat-paid" />
            <Stat label="Committed" value={formatCents(progress.committed_cents)} testId="stat-committed" />
          </dl>
          {tasks.reported > 0 && (
            <p className="alert warning" data-testid="reported-tasks">
              <span aria-hidden="true">⚠ </span>
              <Link to={taskListPath(project.uuid, { state: 'incomplete', reported: true })}>
                {plural(tasks.reported, 'outstanding task')} reported by workers
              </Link>
            </p>
          )}
          <p className="cbc-small muted">
            Committed is what outstanding tasks will still pay when every missing submission arrives.{' '}
            <Link to={taskListPath(project.uuid)}>See the tasks</Link>
          </p>
        </section>

        <section className="card cbc-overview__chart" aria-labelledby="chart-title">
          <h2 id="chart-title">Tasks per day</h2>
          <DailyChart daily={progress.daily} />
        </section>

        <section className="card" aria-labelledby="setup-title">
          <h2 id="setup-title">Set-up</h2>
          <dl className="cbc-facts">
            <dt>UUID</dt>
            <dd>
              <code data-testid="project-uuid">{project.uuid}</code>
            </dd>
            <dt>Name</dt>
            <dd>{project.name}</dd>
            <dt>Defaults</dt>
            <dd>
              {project.default_required_submissions} submissions × {formatCents(project.default_reward)}, {formatDuration(project.allowed_completion_time_seconds)} each
            </dd>
            <dt>Labels</dt>
            <dd>
              <ul className="cbc-label-chips">
                {project.labels.map((l) => (
                  <li key={l.name} className="cbc-label-chip">
                    <span className="cbc-swatch" style={{ background: l.color }} aria-hidden="true" /> {l.name}
                  </li>
                ))}
              </ul>
            </dd>
          </dl>
          <Link to={`/console/projects/${project.uuid}/settings`} className="button small">
            Edit settings
          </Link>
        </section>

        <section className="card" aria-labelledby="first-call-title">
          <h2 id="first-call-title">Add tasks</h2>
          <p>
            Tasks come from your programs through the requester API with a <Link to="/console/keys">live API key</Link>.
          </p>
          <FirstCall projectUuid={project.uuid} variables={variables} imageVariable={project.image_variable} />
        </section>

        <CancelOutstanding projectUuid={project.uuid} progress={progress} onDone={onChanged} />
        {/* One place in both states: it stays mounted across the re-read, and keeps what it has to say. */}
        <ArchiveProject project={project} progress={progress} onDone={onChanged} />
      </div>
    </>
  );
}
