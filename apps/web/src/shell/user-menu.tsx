import type { ErrorItem } from '@crowdbox/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorItems } from '../api/client';
import { useSession } from '../auth/session-context';
import { ErrorList } from './error-list';

/**
 * The signed-in user's name with a small menu: who you are, "Account" and "Log out". Escape or a click
 * outside closes it. A log-out the server did not do keeps the menu open with why, to try again.
 */
export function UserMenu() {
  const { user, logOut } = useSession();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [loggingOut, setLoggingOut] = useState(false);
  const [logOutErrors, setLogOutErrors] = useState<ErrorItem[]>([]);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!rootRef.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') {
        setOpen(false);
        buttonRef.current?.focus();
      }
    };
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  if (!user) return null;
  const initials = user.name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase())
    .join('');

  return (
    <div className="user-menu" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className="user-menu-button"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => {
          setLogOutErrors([]);
          setOpen((o) => !o);
        }}
        data-testid="user-menu"
      >
        <span className="avatar" aria-hidden="true">
          {initials || '?'}
        </span>
        <span className="user-menu-name">{user.name}</span>
      </button>
      {open && (
        <div className="user-menu-panel" id={menuId}>
          <p className="user-menu-who">
            <strong>{user.name}</strong>
            <span className="muted">{user.email}</span>
          </p>
          <Link to="/account" className="button wide" onClick={() => setOpen(false)}>
            Account
          </Link>
          <ErrorList errors={logOutErrors} title="Could not log out; try again." />
          <button
            type="button"
            className="button wide"
            autoFocus
            // aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body.
            aria-disabled={loggingOut || undefined}
            onClick={async () => {
              if (loggingOut) return;
              setLoggingOut(true);
              setLogOutErrors([]);
              try {
                await logOut();
              } catch (error) {
                // Still signed in (session-context.tsx): the menu stays open and says why.
                setLogOutErrors(errorItems(error));
                return;
              } finally {
                setLoggingOut(false);
              }
              setOpen(false);
              navigate('/login', { replace: true });
            }}
          >
            Log out
          </button>
        </div>
      )}
    </div>
  );
}
