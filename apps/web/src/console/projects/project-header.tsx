import type { ReactNode } from 'react';
import { Link, NavLink } from 'react-router';

interface Props {
  uuid: string;
  title: string;
  /** Buttons at the right of the title. */
  actions?: ReactNode;
  /** A crumb under the project (the task page's). */
  crumb?: ReactNode;
  /**
   * With `crumb`, a Tasks crumb between the project and it, to this address: the task page's way back to
   * the list it was opened from (tasks/task-list-return.ts). The page has no tabs to do it.
   */
  tasksPath?: string;
}

/** Breadcrumb, title and the project's tabs (Overview, Tasks, Workers, Settings), shared by its pages. */
export function ProjectHeader({ uuid, title, actions, crumb, tasksPath }: Props) {
  const base = `/console/projects/${uuid}`;
  return (
    <header className="cbc-project-header">
      <nav aria-label="Breadcrumb" className="cbc-crumbs">
        <ol>
          <li>
            <Link to="/console">Projects</Link>
          </li>
          <li>{crumb ? <Link to={base}>{title}</Link> : <span aria-current="page">{title}</span>}</li>
          {crumb && tasksPath && (
            <li>
              <Link to={tasksPath}>Tasks</Link>
            </li>
          )}
          {crumb && <li aria-current="page">{crumb}</li>}
        </ol>
      </nav>
      <div className="page-header">
        <h1>{title}</h1>
        {actions && <div className="cbc-actions">{actions}</div>}
      </div>
      {!crumb && (
        <nav className="cbc-tabs" aria-label="Project">
          <NavLink to={base} end>
            Overview
          </NavLink>
          <NavLink to={`${base}/tasks`}>Tasks</NavLink>
          <NavLink to={`${base}/workers`}>Workers</NavLink>
          <NavLink to={`${base}/settings`}>Settings</NavLink>
        </nav>
      )}
    </header>
  );
}
