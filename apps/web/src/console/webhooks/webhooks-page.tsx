import { useState } from 'react';
import { LoadView } from '../components/load-view';
import { CopyButton } from '../components/copy-button';
import { consoleApi, type WebhookEndpoint } from '../lib/console-api';
import { formatDateTime } from '../lib/format';
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
            <SigningSecret secret={data.signing_secret} />
            <Endpoints endpoints={data.endpoints} />
          </>
        )}
      </LoadView>
      <EventLog onActivity={settings.reload} />
    </div>
  );
}

function SigningSecret({ secret }: { secret: string }) {
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
      </div>
      <p className="field-hint">
        Every delivery carries <code>webhook-id</code>, <code>webhook-timestamp</code> and <code>webhook-signature</code> (
        <code>v1,</code> base64 HMAC-SHA256 of <code>id.timestamp.body</code>), the Standard Webhooks convention. Deduplicate on{' '}
        <code>webhook-id</code>: delivery is at least once.
      </p>
    </section>
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
              {endpoints.map((e) => (
                <tr key={e.url} data-testid="endpoint-row">
                  <td className="cbc-break">
                    <code>{e.url}</code>
                  </td>
                  <td>
                    <span className={`badge cbc-hook cbc-hook--${e.state}`}>{STATE_TEXT[e.state] ?? e.state}</span>
                  </td>
                  <td>{formatDateTime(e.confirmed_at)}</td>
                  <td className="cbc-break">{e.last_error ?? <span className="muted">—</span>}</td>
                  <td>{formatDateTime(e.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
