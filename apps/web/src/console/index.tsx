import { Link, NavLink, Route, Routes, useLocation } from 'react-router';
import { NotFoundPage } from '../shell/app-shell';
import { ApiKeysPage } from './keys/api-keys-page';
import { ProjectFormPage } from './projects/project-form-page';
import { ProjectListPage } from './projects/project-list-page';
import { ProjectPage } from './projects/project-page';
import { TaskListPage } from './tasks/task-list-page';
import { TaskPage } from './tasks/task-page';
import { WebhooksPage } from './webhooks/webhooks-page';
import { BlockedWorkersPage } from './workers/blocked-workers-page';
import { ProjectWorkersPage } from './workers/project-workers-page';
import './console.css';

/**
 * The requester console, mounted by the shell under /console/* (lazy-loaded, behind RequireSession):
 * projects, their tasks and results, API keys, webhooks and blocked workers.
 */
export function ConsoleApp() {
  const { pathname } = useLocation();
  const inProjects = !/^\/console\/(keys|webhooks|workers)\b/.test(pathname);
  return (
    <div className="cbc">
      <nav className="cbc-subnav" aria-label="Console">
        <div className="cbc-subnav__inner">
          <Link to="/console" className={inProjects ? 'active' : undefined} aria-current={inProjects ? (pathname === '/console' ? 'page' : 'true') : undefined}>
            Projects
          </Link>
          <NavLink to="/console/keys">API keys</NavLink>
          <NavLink to="/console/webhooks">Webhooks</NavLink>
          <NavLink to="/console/workers">Blocked workers</NavLink>
        </div>
      </nav>
      <Routes>
        <Route index element={<ProjectListPage />} />
        <Route path="projects/new" element={<ProjectFormPage />} />
        <Route path="projects/:projectUuid" element={<ProjectPage />} />
        <Route path="projects/:projectUuid/settings" element={<ProjectFormPage />} />
        <Route path="projects/:projectUuid/tasks" element={<TaskListPage />} />
        <Route path="projects/:projectUuid/tasks/:taskUuid" element={<TaskPage />} />
        <Route path="projects/:projectUuid/workers" element={<ProjectWorkersPage />} />
        <Route path="keys" element={<ApiKeysPage />} />
        <Route path="webhooks" element={<WebhooksPage />} />
        <Route path="workers" element={<BlockedWorkersPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Routes>
    </div>
  );
}

export default ConsoleApp;
