import type { ConsoleProjectResponse, ErrorItem } from '@crowdbox/contracts';
import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorItems } from '../../api/client';
import { ErrorList } from '../../shell/error-list';
import { DailyChart } from '../components/daily-chart';
import { LoadView } from '../components/load-view';
import { ProgressBar } from '../components/progress-bar';
import { Stat } from '../components/stat';
import { consoleApi, type ConsoleProjectsPage, type ProjectProgress } from '../lib/console-api';
import { formatCount } from '../lib/format';
import { formatCents } from '../../shell/format';
import { useLoad } from '../lib/use-load';

/**
 * Projects a page asks for. Each card costs a progress request (every task of its project, and 30 daily
 * counts), so a page is kept small: an account with hundreds of projects went past the session rate
 * limit when the list asked for all of them (docs/decisions.md, "The project list is paged").
 */
export const PROJECT_PAGE = 20;

interface ProjectWithProgress {
  project: ConsoleProjectResponse;
  progress: ProjectProgress;
}

/** One page of the list with its projects' progress, and what the API said about the rest. */
interface ProjectRowsPage {
  rows: ProjectWithProgress[];
  next_cursor: string | null;
  counts: ConsoleProjectsPage['counts'];
}

/** A page of the projects in use (or the archived ones) older than `before`, and the progress of those only. */
async function loadProjectPage(archived: boolean, before: string | undefined, signal: AbortSignal): Promise<ProjectRowsPage> {
  const page = await consoleApi.projects({ archived, before, limit: PROJECT_PAGE }, signal);
  const progress = await Promise.all(page.data.map((p) => consoleApi.progress(p.uuid, signal)));
  return {
    rows: page.data.map((project, i): ProjectWithProgress => ({ project, progress: progress[i] })),
    next_cursor: page.next_cursor,
    counts: page.counts,
  };
}

/**
 * /console: the account's projects in use with their progress, money and a per-day chart, newest first,
 * PROJECT_PAGE at a time ("Load more projects" appends the next page); archived ones (docs/decisions.md,
 * "Archiving a project") under /console?archived=1, reached by the "Archived (N)" link.
 */
export function ProjectListPage() {
  const [search] = useSearchParams();
  const showArchived = search.get('archived') === '1';
  const { state, reload } = useLoad((signal) => loadProjectPage(showArchived, undefined, signal), [showArchived]);

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
        {(first) =>
          first.counts.in_use + first.counts.archived === 0 ? (
            <div className="card cbc-empty">
              <h2>No projects yet</h2>
              <p>A project holds the instructions workers see, the labels they draw with and what each task pays.</p>
              <Link to="/console/projects/new" className="button primary">
                Create your first project
              </Link>
            </div>
          ) : (
            // Keyed by the filter: the pages "Load more" appended belong to the list they were asked under.
            <ProjectRows key={showArchived ? 'archived' : 'in-use'} first={first} showArchived={showArchived} />
          )
        }
      </LoadView>
    </div>
  );
}

/** The projects in use, or the archived ones, with a link to the other list and "Load more projects". */
function ProjectRows({ first, showArchived }: { first: ProjectRowsPage; showArchived: boolean }) {
  const [more, setMore] = useState<ProjectRowsPage[]>([]);
  const [loadingMore, setLoadingMore] = useState(false);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  // The "Load more" on its way: dropped when the list goes (another filter, another page of the app).
  const request = useRef<AbortController | null>(null);
  useEffect(() => () => request.current?.abort(), []);
  // When the last page arrives the button goes, taking the focus with it: the first card it brought gets it.
  const focusFirstOf = useRef<string | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  useEffect(() => {
    const uuid = focusFirstOf.current;
    if (!uuid) return;
    focusFirstOf.current = null;
    listRef.current?.querySelector<HTMLElement>(`[data-project-uuid="${uuid}"] a`)?.focus();
  }, [more]);

  const pages = [first, ...more];
  const last = pages[pages.length - 1];
  const shown = pages.flatMap((page) => page.rows);
  // The latest answer's counts: a project archived or made since the first page is counted.
  const { counts } = last;

  const loadMore = async () => {
    if (!last.next_cursor || request.current) return;
    const controller = new AbortController();
    request.current = controller;
    setLoadingMore(true);
    setErrors([]);
    try {
      const page = await loadProjectPage(showArchived, last.next_cursor, controller.signal);
      if (controller.signal.aborted) return;
      if (!page.next_cursor) focusFirstOf.current = page.rows[0]?.project.uuid ?? null;
      setMore((pages) => [...pages, page]);
    } catch (error) {
      // The rows shown stay; the button stays too, to try again.
      if (!controller.signal.aborted) setErrors(errorItems(error));
    } finally {
      if (request.current === controller) {
        request.current = null;
        setLoadingMore(false);
      }
    }
  };

  return (
    <>
      {(showArchived || counts.archived > 0) && (
        <nav className="cbc-list-filter" aria-label="Which projects">
          {showArchived ? (
            <Link to="/console" data-testid="show-active">
              ← Projects in use ({formatCount(counts.in_use)})
            </Link>
          ) : (
            <Link to="/console?archived=1" data-testid="show-archived">
              Archived ({formatCount(counts.archived)})
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
        <ul ref={listRef} className="cbc-project-list" aria-label={showArchived ? 'Archived projects' : 'Projects'}>
          {shown.map((row) => (
            <ProjectCard key={row.project.uuid} {...row} />
          ))}
        </ul>
      )}
      <ErrorList errors={errors} title="The next projects could not be loaded." />
      {last.next_cursor && (
        <p className="cbc-load-more">
          {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
          <button type="button" className="button" onClick={loadMore} aria-disabled={loadingMore || undefined} data-testid="load-more-projects">
            {loadingMore ? 'Loading more projects…' : 'Load more projects'}
          </button>
        </p>
      )}
    </>
  );
}

function ProjectCard({ project, progress }: ProjectWithProgress) {
  const { tasks } = progress;
  return (
    <li className="card cbc-project-card" data-testid="project-card" data-project-uuid={project.uuid}>
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
