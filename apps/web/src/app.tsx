import { useState } from 'react';
import { createBrowserRouter, Navigate, RouterProvider, type RouteObject } from 'react-router';
import { LoginPage, SignupPage } from './auth/auth-page';
import { RequireSession } from './auth/require-session';
import { SessionProvider } from './auth/session-context';
import { AppShell, NotFoundPage } from './shell/app-shell';
import { Loading } from './shell/loading';
import { WorkProjectsPage } from './work/work-projects-page';
import { WorkTaskPage } from './work/work-task-page';

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
        lazy: async () => {
          const { WorkHistoryPage } = await import('./work/work-history-page');
          return {
            element: (
              <RequireSession>
                <WorkHistoryPage />
              </RequireSession>
            ),
          };
        },
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
        lazy: async () => {
          const { AccountPage } = await import('./account/account-page');
          return {
            element: (
              <RequireSession>
                <AccountPage />
              </RequireSession>
            ),
          };
        },
      },
      {
        path: 'console/*',
        lazy: async () => {
          const { ConsoleApp } = await import('./console');
          return {
            element: (
              <RequireSession>
                <ConsoleApp />
              </RequireSession>
            ),
          };
        },
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
