import { useState } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router';
import { LoginPage, SignupPage } from './auth/auth-page';
import { RequireSession } from './auth/require-session';
import { SessionProvider } from './auth/session-context';
import { AppShell, NotFoundPage } from './shell/app-shell';
import { LazyPage } from './shell/lazy-page';
import { Loading } from './shell/loading';
import { retryableImport } from './shell/retryable-import';
import { WorkProjectsPage } from './work/work-projects-page';
import { WorkTaskPage } from './work/work-task-page';

// Loaded on first visit, each through LazyPage: a download that fails can be tried again in place.
const workHistoryPage = retryableImport(() => import('./work/work-history-page').then((m) => m.WorkHistoryPage));
const accountPage = retryableImport(() => import('./account/account-page').then((m) => m.AccountPage));
const consoleApp = retryableImport(() => import('./console').then((m) => m.ConsoleApp));

/**
 * Every route of the web app. The console and the account page are lazy-loaded so a worker never
 * downloads them until opened: the worker bundle holds the shell, auth and /work only
 * (bench/web-bundle.mjs measures it).
 */
export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    hydrateFallbackElement: <Loading />,
    children: [
      { index: true, element: <Navigate to="/work" replace /> },
      { path: 'login', element: <LoginPage /> },
      { path: 'signup', element: <SignupPage /> },
      {
        path: 'work',
        element: (
          <RequireSession>
            <WorkProjectsPage />
          </RequireSession>
        ),
      },
      {
        // Lazy like the account page: not needed to find or do work, so not in the worker bundle.
        path: 'work/history',
        element: (
          <RequireSession>
            <LazyPage page={workHistoryPage} />
          </RequireSession>
        ),
      },
      {
        path: 'work/:projectUuid',
        element: (
          <RequireSession>
            <WorkTaskPage />
          </RequireSession>
        ),
      },
      {
        path: 'account',
        element: (
          <RequireSession>
            <LazyPage page={accountPage} />
          </RequireSession>
        ),
      },
      {
        path: 'console/*',
        element: (
          <RequireSession>
            <LazyPage page={consoleApp} />
          </RequireSession>
        ),
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

export function App() {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <SessionProvider>
      <RouterProvider router={router} />
    </SessionProvider>
  );
}
