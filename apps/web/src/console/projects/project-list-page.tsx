import type { ConsoleProjectResponse } from '@crowdbox/contracts';
import { Link, useSearchParams } from 'react-router';
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

/**
 * /console: the account's projects in use with their progress, money and a per-day chart; archived ones
 * (docs/decisions.md, "Archiving a project") under /console?archived=1, reached by the "Archived (N)" link.
 */
export function ProjectListPage() {
  const [search] = useSearchParams();
  const showArchived = search.get('archived') === '1';
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
            <ProjectRows rows={rows} showArchived={showArchived} />
          )
        }
      </LoadView>
    </div>
  );
}

/** The projects in use, or the archived ones, with a link to the other list. */
function ProjectRows({ rows, showArchived }: { rows: ProjectWithProgress[]; showArchived: boolean }) {
  const archived = rows.filter((row) => row.project.archived_at !== null);
  const active = rows.filter((row) => row.project.archived_at === null);
  const shown = showArchived ? archived : active;
  return (
    <>
      {(showArchived || archived.length > 0) && (
        <nav className="cbc-list-filter" aria-label="Which projects">
          {showArchived ? (
            <Link to="/console" data-testid="show-active">
              ← Projects in use ({formatCount(active.length)})
            </Link>
          ) : (
            <Link to="/console?archived=1" data-testid="show-archived">
              Archived ({formatCount(archived.length)})
            </Link>
          )}
        </nav>
      )}
      {showArchived && <h2 className="cbc-list-title">Archived projects</h2>}
      {shown.length === 0 ? (
        <p className="muted" data-testid="no-projects-shown">
          {showArchived ? 'No archived projects.' : 'Every project is archived.'}
        </p>
      ) : (
        <ul className="cbc-project-list" aria-label={showArchived ? 'Archived projects' : 'Projects'}>
          {shown.map((row) => (
            <ProjectCard key={row.project.uuid} {...row} />
          ))}
        </ul>
      )}
    </>
  );
}

function ProjectCard({ project, progress }: ProjectWithProgress) {
  const { tasks } = progress;
  return (
    <li className="card cbc-project-card" data-testid="project-card">
      <div className="cbc-project-card__head">
        <h2>
          <Link to={`/console/projects/${project.uuid}`}>{project.display_name}</Link>
          {project.archived_at !== null && <span className="badge cbc-badge-gap">Archived</span>}
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
