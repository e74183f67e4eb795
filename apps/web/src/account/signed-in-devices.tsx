import type { ErrorItem, SessionInfo } from '@crowdbox/contracts';
import { useEffect, useState } from 'react';
import { ApiError, errorItems, mayHaveArrived } from '../api/client';
import { sessionApi } from '../api/session.api';
import { DateTime } from '../console/components/date-time';
import { LoadView } from '../console/components/load-view';
import { formatDateTime } from '../console/lib/format';
import { useFocusStatus } from '../console/lib/use-focus-status';
import { useLoad } from '../console/lib/use-load';
import { ErrorList } from '../shell/error-list';
import { browserName } from './browser-name';
import { signedOutText } from './signed-out-text';

interface Props {
  /** Called with a failed call's error (a 401 means this session itself has ended). */
  onError: (error: unknown) => void;
  /** Changes when something else on the page ended sessions (a password change): the list is read again. */
  refresh: number;
}

/**
 * Two devices may show the same browser name (two laptops with the same Firefox): when it signed in
 * tells them apart in the button's name and the sentences.
 */
const described = (device: SessionInfo) => `${browserName(device.user_agent)} (signed in ${formatDateTime(device.created_at)})`;

/**
 * "Signed-in devices" (docs/decisions.md, "Signed-in devices"): the user's live sessions, each with
 * Sign out but this one (which the user menu's Log out ends), and "Sign out of other sessions".
 */
export function SignedInDevices({ onError, refresh }: Props) {
  const { state, reload } = useLoad(
    (signal) =>
      sessionApi.sessions(signal).catch((error: unknown) => {
        onError(error);
        throw error;
      }),
    [],
  );
  // Which device's sign-out is on its way, or 'others' for the button below the list.
  const [busy, setBusy] = useState<string | null>(null);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  const [errorTitle, setErrorTitle] = useState<string | undefined>();
  const [signedOut, setSignedOut] = useState('');
  const [othersSignedOut, setOthersSignedOut] = useState('');
  // Devices signed out on this visit leave the table at once, not when the list read again arrives.
  const [removed, setRemoved] = useState<string[]>([]);
  // The Sign out button pressed is gone with its row: the sentence that says what happened takes the focus.
  const signedOutRef = useFocusStatus(signedOut);

  useEffect(() => {
    if (refresh > 0) reload();
  }, [refresh, reload]);

  const start = (what: string) => {
    setBusy(what);
    setErrors([]);
    setErrorTitle(undefined);
    setSignedOut('');
    setOthersSignedOut('');
  };

  const signOut = async (device: SessionInfo) => {
    if (busy) return;
    start(device.id);
    try {
      await sessionApi.endSession(device.id);
      setRemoved((ids) => [...ids, device.id]);
      setSignedOut(`${described(device)} is signed out: that device has to log in again.`);
      reload();
    } catch (error) {
      // Ended meanwhile (it logged out, its session ran out, another tab signed it out): what was asked is done.
      if (error instanceof ApiError && error.status === 404) {
        setRemoved((ids) => [...ids, device.id]);
        setSignedOut(`${described(device)} was already signed out.`);
        reload();
        return;
      }
      setErrors(errorItems(error));
      const unsure = mayHaveArrived(error);
      setErrorTitle(unsure ? `No answer from the server: ${described(device)} may have been signed out. The list is read again.` : `${described(device)} was not signed out.`);
      if (unsure) reload();
      onError(error);
    } finally {
      setBusy(null);
    }
  };

  const signOutOthers = async () => {
    if (busy) return;
    start('others');
    try {
      setOthersSignedOut(signedOutText((await sessionApi.logOutOthers()).signed_out_sessions));
      reload();
    } catch (error) {
      setErrors(errorItems(error));
      // Pressing again is harmless and says how many were still signed in.
      if (mayHaveArrived(error)) {
        setErrorTitle('No answer from the server: the other sessions may have been signed out. Press the button again to be sure.');
        reload();
      }
      onError(error);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card account-card" aria-labelledby="devices-title">
      <h2 id="devices-title">Signed-in devices</h2>
      <p className="muted">
        Each device you log in from stays signed in until it logs out or its session runs out. One you do not recognise, or no longer have? Sign it out: it
        has to log in with your password again.
      </p>
      <ErrorList errors={errors} title={errorTitle} />
      {signedOut && (
        <p className="alert info" role="status" tabIndex={-1} ref={signedOutRef} data-testid="device-signed-out">
          {signedOut}
        </p>
      )}
      {othersSignedOut && (
        <p className="alert success" role="status" data-testid="others-signed-out">
          {othersSignedOut}
        </p>
      )}
      <LoadView state={state} label="Loading signed-in devices" onRetry={reload}>
        {(all) => (
          <div className="table-scroll account-devices">
            <table className="table" data-testid="device-table">
              <caption className="visually-hidden">Signed-in devices</caption>
              <thead>
                <tr>
                  <th scope="col">Device and address</th>
                  <th scope="col">Signed in</th>
                  <th scope="col">Last active</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {all
                  .filter((device) => !removed.includes(device.id))
                  .map((device) => (
                    <tr key={device.id} data-testid="device-row" data-current={device.current || undefined}>
                      {/* One cell for both, which the narrow page could not give a column each without wrapping every date. */}
                      <td>
                        {/* The whole User-Agent on hover: the name is a reading of it, which may leave out what tells two apart. */}
                        <div title={device.user_agent ?? undefined}>{browserName(device.user_agent)}</div>
                        <div className="muted" data-testid="device-address">
                          {device.client_address ?? 'address unknown'}
                          {device.current && <span className="badge account-this-device">This device</span>}
                        </div>
                      </td>
                      <td>
                        <DateTime iso={device.created_at} />
                      </td>
                      <td>
                        <DateTime iso={device.last_used_at} />
                      </td>
                      <td>
                        {!device.current && (
                          // aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body.
                          <button
                            type="button"
                            className="button small"
                            aria-disabled={busy !== null || undefined}
                            onClick={() => signOut(device)}
                            aria-label={`Sign out ${described(device)}`}
                          >
                            {busy === device.id ? 'Signing out…' : 'Sign out'}
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
              </tbody>
            </table>
          </div>
        )}
      </LoadView>
      <button type="button" className="button danger" aria-disabled={busy !== null || undefined} onClick={signOutOthers}>
        {busy === 'others' ? 'Please wait…' : 'Sign out of other sessions'}
      </button>
    </section>
  );
}
