// PLACEHOLDER written by the worker-area helper so routing and the lazy chunk build today.
// Console helper: replace this whole file with your real `export function ConsoleApp()` (it is mounted
// at /console/* inside <RequireSession> and the app shell, lazy-loaded by apps/web/src/app.tsx, so use
// relative descendant <Routes> here). The shell, api/client.ts, auth/ and styles/ are shared; see app.tsx.
export function ConsoleApp() {
  return (
    <div className="page">
      <h1>Console</h1>
      <p className="muted">The requester console is on its way.</p>
    </div>
  );
}
