import { useState } from 'react';
import { ApiError } from '../api/client';
import { useSession } from '../auth/session-context';
import { ChangePasswordForm } from './change-password-form';
import { DeleteAccount } from './delete-account';
import { SignedInDevices } from './signed-in-devices';
import { YourData } from './your-data';
import './account.css';

/**
 * /account, for every signed-in user (worker and requester alike): change the password, see the signed-in
 * devices and sign them out, download one's data, delete the account. Lazy-loaded by the shell, so the
 * worker bundle carries none of it.
 */
export function AccountPage() {
  const session = useSession();
  // Counts password changes, which end the other sessions: the list of devices is read again after each.
  const [passwordChanges, setPasswordChanges] = useState(0);

  // The API client leaves 401s of /api/session/* to their callers (a wrong log-in is one); here a 401
  // means this session ended elsewhere, so the session is read again and RequireSession asks to log in.
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.status === 401) void session.refresh();
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
      <ChangePasswordForm email={session.user.email} onError={onError} onChanged={() => setPasswordChanges((n) => n + 1)} />
      <SignedInDevices onError={onError} refresh={passwordChanges} />
      <YourData />
      <DeleteAccount onError={onError} />
    </div>
  );
}
