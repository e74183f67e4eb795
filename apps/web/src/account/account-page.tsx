import type { ErrorItem } from '@crowdbox/contracts';
import { useState } from 'react';
import { ApiError, errorItems, mayHaveArrived } from '../api/client';
import { sessionApi } from '../api/session.api';
import { useSession } from '../auth/session-context';
import { ErrorList } from '../shell/error-list';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccount } from './delete-account';
import { signedOutText } from './signed-out-text';
import { YourData } from './your-data';
import './account.css';

/**
 * /account, for every signed-in user (worker and requester alike): change the password, sign out the
 * other sessions, download one's data, delete the account. Lazy-loaded by the shell, so the worker bundle
 * carries none of it.
 */
export function AccountPage() {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [done, setDone] = useState<string | null>(null);
  // The last press got no answer: the server may have signed the others out. Pressing again is harmless
  // and says how many were still signed in.
  const [unsure, setUnsure] = useState(false);

  // The API client leaves 401s of /api/session/* to their callers (a wrong log-in is one); here a 401
  // means this session ended elsewhere, so the session is read again and RequireSession asks to log in.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) void session.refresh();
  };

  const logOutOthers = async () => {
    if (busy) return;
    setBusy(true);
    setErrors([]);
    setDone(null);
    setUnsure(false);
    try {
      setDone(signedOutText((await sessionApi.logOutOthers()).signed_out_sessions));
    } catch (error) {
      setErrors(errorItems(error));
      setUnsure(mayHaveArrived(error));
      onError(error);
    } finally {
      setBusy(false);
    }
  };

  if (!session.user) return null;
  return (
    <div className="page narrow">
      <div className="page-header">
        <div>
          <h1>Account</h1>
          <p className="muted">
            Signed in as {session.user.name} ({session.user.email}).
          </p>
        </div>
      </div>
      <ChangePasswordForm email={session.user.email} onError={onError} />
      <section className="card account-card" aria-labelledby="other-sessions-title">
        <h2 id="other-sessions-title">Other sessions</h2>
        <p className="muted">Each device you log in from stays signed in until it logs out or its session runs out. Signed in on a device you no longer have? End every session but this one.</p>
        {done && (
          <p className="alert success" role="status" data-testid="others-signed-out">
            {done}
          </p>
        )}
        <ErrorList errors={errors} title={unsure ? 'No answer from the server: the other sessions may have been signed out. Press the button again to be sure.' : undefined} />
        {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
        <button type="button" className="button danger" aria-disabled={busy || undefined} onClick={logOutOthers}>
          {busy ? 'Please wait…' : 'Sign out of other sessions'}
        </button>
      </section>
      <YourData />
      <DeleteAccount onError={onError} />
    </div>
  );
}
