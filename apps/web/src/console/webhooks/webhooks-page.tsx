import { useState } from 'react';
import { ErrorList } from '../../shell/error-list';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DateTime } from '../components/date-time';
import { LoadView } from '../components/load-view';
import { CopyButton } from '../components/copy-button';
import { consoleApi, type WebhookEndpoint, type WebhookSettings } from '../lib/console-api';
import { useConfirmedRequest } from '../lib/use-confirmed-request';
import { useLoad } from '../lib/use-load';
import { EventLog } from './event-log';

/** /console/webhooks: the signing secret, every callback address with its state, and the event log. */
export function WebhooksPage() {
  const settings = useLoad((signal) => consoleApi.webhooks(signal), []);
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Webhooks</h1>
          <p className="muted cbc-lede">
            When a task is complete, Crowdbox posts it to the task&apos;s <code>callback_url</code>, signed with your secret.
          </p>
        </div>
      </div>
      <LoadView state={settings.state} label="Loading webhook settings" onRetry={settings.reload}>
        {(data) => (
          <>
            <SigningSecret settings={data} onRotated={settings.reload} />
            <Endpoints endpoints={data.endpoints} />
          </>
        )}
      </LoadView>
      <EventLog onActivity={settings.reload} />
    </div>
  );
}

function SigningSecret({ settings, onRotated }: { settings: WebhookSettings; onRotated: () => void }) {
  const secret = settings.signing_secret;
  const [shown, setShown] = useState(false);
  return (
    <section className="card cbc-section" aria-labelledby="secret-title">
      <h2 id="secret-title">Signing secret</h2>
      <div className="cbc-secret">
        <code data-testid="signing-secret">{shown ? secret : `${secret.slice(0, 6)}${'•'.repeat(24)}`}</code>
        <button type="button" className="button small" onClick={() => setShown((s) => !s)} aria-pressed={shown}>
          {shown ? 'Hide' : 'Show'}
        </button>
        <CopyButton text={secret} what="signing secret" />
        <RotateSecret onRotated={onRotated} />
      </div>
      {settings.previous_secret_expires_at && (
        <p className="alert info" role="status" data-testid="previous-secret">
          The previous secret also signs every delivery until <DateTime iso={settings.previous_secret_expires_at} />: switch your receiver to
          the new one before then.
        </p>
      )}
      <p className="field-hint">
        Every delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> (
        <code>v1,</code> base64 HMAC-SHA256 of <code>id.timestamp.body</code>), the Standard Webhooks convention. Deduplicate on{' '}
        <code>webhook-id</code>: delivery is at least once.
      </p>
    </section>
  );
}

/**
 * "Rotate secret", for a secret that leaked or is due for a change. The old secret keeps signing beside
 * the new one for a day, so receivers can switch without rejecting a delivery.
 */
function RotateSecret({ onRotated }: { onRotated: () => void }) {
  // Without an answer the server may have rotated it: the settings are read again then too (onDone), so
  // the page shows the secret that signs now, not the replaced one, and a second rotation (which would
  // retire the replaced one at once, breaking receivers still on it) is not pressed in the belief the
  // first failed.
  const { open, setOpen, busy, errors, setErrors, unsure, confirm } = useConfirmedRequest(() => consoleApi.rotateSigningSecret(), onRotated);
  return (
    <>
      <ErrorList
        errors={errors}
        title={
          unsure
            ? 'No answer from the server: the secret may have been rotated. It is read again here; check it before rotating again.'
            : 'The secret was not rotated.'
        }
      />
      <button
        type="button"
        className="button small"
        onClick={() => {
          setErrors([]);
          setOpen(true);
        }}
        data-testid="rotate-secret"
      >
        Rotate secret
      </button>
      <ConfirmDialog
        open={open}
        busy={busy}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        onConfirm={confirm}
        onClose={() => setOpen(false)}
      >
        <p>
          A new secret signs every delivery from now on. For 24 hours the current one signs beside it (two signatures in{' '}
          <code>webhook-signature</code>), so your receiver keeps accepting deliveries while you switch it to the new secret.
        </p>
      </ConfirmDialog>
    </>
  );
}

const STATE_TEXT: Record<string, string> = { pending: 'awaiting confirmation', confirmed: 'confirmed', failed: 'failed' };

function Endpoints({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  return (
    <section className="card cbc-section" aria-labelledby="endpoints-title">
      <h2 id="endpoints-title">Callback addresses</h2>
      {endpoints.length === 0 ? (
        <p className="muted">
          None yet. An address is registered the first time a task names it as <code>callback_url</code>, and confirmed by a challenge
          before any data is sent to it.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table" data-testid="endpoint-table">
            <thead>
              <tr>
                <th scope="col">Address</th>
                <th scope="col">State</th>
                <th scope="col">Confirmed</th>
                <th scope="col">Last error</th>
                <th scope="col">Registered</th>
              </tr>
            </thead>
            <tbody>
              {/* Keyed by place, not address: two addresses differing only in their credentials show alike (***@). */}
              {endpoints.map((e, i) => (
                <tr key={i} data-testid="endpoint-row">
                  <td className="cbc-break">
                    <code>{e.url}</code>
                  </td>
                  <td>
                    <span className={`badge cbc-hook cbc-hook--${e.state}`}>{STATE_TEXT[e.state] ?? e.state}</span>
                  </td>
                  <td><DateTime iso={e.confirmed_at} /></td>
                  <td className="cbc-break">{e.last_error ?? <span className="muted">—</span>}</td>
                  <td><DateTime iso={e.created_at} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
