import type { ConsoleProjectResponse } from '@crowdbox/contracts';
import { Link } from 'react-router';
import { DailyChart } from '../components/daily-chart';
import { LoadView } from '../components/load-view';
import { ProgressBar } from '../components/progress-bar';
import { Stat } from '../components/stat';
import { consoleApi, type ProjectProgress } from '../lib/console-api';
import { formatCount } from '../lib/format';
import { formatCents } from '../../shell/format';
import { useLoad } from '../lib/use-load';

interface ProjectWithProgress {
  project: ConsoleProjectResponse;
  progress: ProjectProgress;
}

/** /console: every project of the account with its progress, money and a per-day chart. */
export function ProjectListPage() {
  const { state, reload } = useLoad(async (signal) => {
    const projects = await consoleApi.projects(signal);
    const progress = await Promise.all(projects.map((p) => consoleApi.progress(p.uuid, signal)));
    return projects.map((project, i): ProjectWithProgress => ({ project, progress: progress[i] }));
  }, []);

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Projects</h1>
          <p className="muted cbc-lede">Set up what workers see, watch tasks come in and get done.</p>
        </div>
        <Link to="/console/projects/new" className="button primary">
          New project
        </Link>
      </div>
      <LoadView state={state} label="Loading projects" onRetry={reload}>
        {(rows) =>
          rows.length === 0 ? (
            <div className="card cbc-empty">
              <h2>No projects yet</h2>
              <p>A project holds the instructions workers see, the labels they draw with and what each task pays.</p>
              <Link to="/console/projects/new" className="button primary">
                Create your first project
              </Link>
            </div>
          ) : (
            <ul className="cbc-project-list" aria-label="Projects">
              {rows.map((row) => (
                <ProjectCard key={row.project.uuid} {...row} />
              ))}
            </ul>
          )
        }
      </LoadView>
    </div>
  );
}

function ProjectCard({ project, progress }: ProjectWithProgress) {
  const { tasks } = progress;
  return (
    <li className="card cbc-project-card" data-testid="project-card">
      <div className="cbc-project-card__head">
        <h2>
          <Link to={`/console/projects/${project.uuid}`}>{project.display_name}</Link>
        </h2>
        <span className="muted cbc-mono" title="Project name and UUID">
          {project.name} · {project.uuid}
        </span>
      </div>
      <div className="cbc-project-card__body">
        <div className="cbc-project-card__progress">
          <ProgressBar complete={tasks.complete} outstanding={tasks.outstanding} cancelled={tasks.cancelled} />
          <dl className="cbc-stats cbc-stats--compact">
            <Stat label="Complete" value={formatCount(tasks.complete)} />
            <Stat label="Outstanding" value={formatCount(tasks.outstanding)} />
            <Stat label="Cancelled" value={formatCount(tasks.cancelled)} />
            <Stat label="Submissions" value={formatCount(progress.submissions)} />
            <Stat label="Paid" value={formatCents(progress.paid_cents)} />
            <Stat label="Committed" value={formatCents(progress.committed_cents)} />
          </dl>
        </div>
        <div className="cbc-project-card__chart">
          <DailyChart daily={progress.daily} size="small" />
          <span className="muted cbc-small">tasks created / completed, 30 days</span>
        </div>
      </div>
    </li>
  );
}
