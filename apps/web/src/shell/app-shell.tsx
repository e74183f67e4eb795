import { Suspense, useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useSession } from '../auth/session-context';
import { Loading } from './loading';
import { UserMenu } from './user-menu';

/** The frame around every page: skip link, top bar (brand, Work / Console, user menu) and the page itself. */
export function AppShell() {
  const { state } = useSession();
  const mainRef = useRef<HTMLElement>(null);
  const { pathname } = useLocation();
  const firstPath = useRef(pathname);
  // After an in-app navigation, focus moves to the new page (as a full page load would reset it), so
  // keyboard and screen-reader users start at its content instead of on a control that is gone.
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = '';
    mainRef.current?.focus({ preventScroll: true });
  }, [pathname]);
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand" aria-label="Crowdbox home">
          <span className="brand-mark" aria-hidden="true" />
          Crowdbox
        </Link>
        {state.status === 'signed-in' && (
          <nav className="topnav" aria-label="Main">
            <NavLink to="/work">Work</NavLink>
            <NavLink to="/console">Console</NavLink>
          </nav>
        )}
        <div className="topbar-end">
          {state.status === 'signed-in' && <UserMenu />}
          {state.status === 'anonymous' && (
            <nav className="topnav" aria-label="Account">
              <NavLink to="/login">Log in</NavLink>
              <NavLink to="/signup">Sign up</NavLink>
            </nav>
          )}
        </div>
      </header>
      <main className="main" id="main" tabIndex={-1} ref={mainRef}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}

/** For addresses the app does not know. */
export function NotFoundPage() {
  return (
    <div className="page narrow">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to="/work">Find work</Link> or open the <Link to="/console">console</Link>.
      </p>
    </div>
  );
}
