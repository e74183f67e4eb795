import type { ApiKeyResponse, CreatedApiKeyResponse, ErrorItem } from '@crowdbox/contracts';
import { templateVariables } from '@crowdbox/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorItems, mayHaveArrived } from '../../api/client';
import { ErrorList } from '../../shell/error-list';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { DateTime } from '../components/date-time';
import { LeaveGuard } from '../components/leave-guard';
import { FirstCall } from '../components/first-call';
import { LoadView } from '../components/load-view';
import { consoleApi } from '../lib/console-api';
import { useFocusStatus } from '../lib/use-focus-status';
import { useLoad } from '../lib/use-load';

/** /console/keys: create live and test keys (the secret shown once), see their use, revoke; the first call. */
export function ApiKeysPage() {
  const keys = useLoad((signal) => consoleApi.apiKeys(signal), []);
  // Every key made during this visit, newest first: each secret stays until the requester dismisses it,
  // so making a second key never hides the first one's secret before it was saved.
  const [created, setCreated] = useState<CreatedApiKeyResponse[]>([]);
  const dismiss = (id: string) => setCreated((keys) => keys.filter((k) => k.id !== id));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  // A create or revoke without an answer may have been done: what it may have done, the list being read again.
  const [unsure, setUnsure] = useState<string | undefined>();
  const failed = (error: unknown, mayHaveDone: string) => {
    setErrors(errorItems(error));
    if (!mayHaveArrived(error)) return;
    setUnsure(mayHaveDone);
    keys.reload();
  };
  const [revoking, setRevoking] = useState<ApiKeyResponse | null>(null);
  const [revoked, setRevoked] = useState('');
  // The Revoke button that opened the dialog is gone with the key: the sentence saying what happened takes the focus.
  const revokedRef = useFocusStatus(revoked);
  // "I have saved it" goes with its box: the focus moves to the next new key's box, else to a sentence
  // saying the secret is hidden, instead of falling to the page's body.
  const [hidden, setHidden] = useState('');
  const hiddenRef = useFocusStatus(hidden);
  const panels = useRef(new Map<string, HTMLElement>());
  const saved = (key: CreatedApiKeyResponse) => {
    const index = created.findIndex((k) => k.id === key.id);
    const next = created[index + 1] ?? created[index - 1];
    const nextPanel = next && panels.current.get(next.id);
    // The other box stays on the page, so it can take the focus before this one goes.
    if (nextPanel) {
      setHidden('');
      nextPanel.focus();
    } else {
      setHidden(`Key ${key.prefix}… hidden: its secret is no longer shown.`);
    }
    dismiss(key.id);
  };

  const create = async (mode: 'live' | 'test') => {
    if (busy) return;
    setBusy(true);
    setErrors([]);
    setUnsure(undefined);
    setRevoked('');
    setHidden('');
    try {
      const key = await consoleApi.createApiKey(mode);
      setCreated((keys) => [key, ...keys]);
      keys.reload();
    } catch (error) {
      failed(error, 'No answer from the server: a key may have been made, whose secret cannot be shown. The list is read again; revoke a key you cannot use.');
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    // An error shown before (the 20-key cap's above all) is about the keys as they were.
    setErrors([]);
    setUnsure(undefined);
    try {
      await consoleApi.revokeApiKey(revoking.id);
      setHidden('');
      setRevoked(`Key ${revoking.prefix}… is revoked: programs using it now get 401.`);
      dismiss(revoking.id);
      keys.reload();
    } catch (error) {
      failed(error, 'No answer from the server: the key may have been revoked. The list is read again.');
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  };

  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>API keys</h1>
          <p className="muted cbc-lede">
            Your programs send an <code>apikey</code> header. Live keys create real tasks; test keys get realistic fake answers and
            change nothing.
          </p>
        </div>
        {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
        <div className="cbc-actions">
          <button type="button" className="button primary" aria-disabled={busy || undefined} onClick={() => create('live')} data-testid="create-live-key">
            Create live key
          </button>
          <button type="button" className="button" aria-disabled={busy || undefined} onClick={() => create('test')} data-testid="create-test-key">
            Create test key
          </button>
        </div>
      </div>
      <ErrorList errors={errors} title={unsure} />
      {revoked && (
        <p className="alert info" role="status" tabIndex={-1} ref={revokedRef} data-testid="key-revoked">
          {revoked}
        </p>
      )}
      {hidden && (
        <p className="alert info" role="status" tabIndex={-1} ref={hiddenRef} data-testid="key-hidden">
          {hidden}
        </p>
      )}
      {created.map((key) => (
        <NewKey
          key={key.id}
          created={key}
          onDismiss={() => saved(key)}
          panelRef={(el) => {
            if (el) panels.current.set(key.id, el);
            else panels.current.delete(key.id);
          }}
        />
      ))}

      <LoadView state={keys.state} label="Loading keys" onRetry={keys.reload}>
        {(list) =>
          list.length === 0 ? (
            <div className="card cbc-empty">
              <p>No keys yet. Create a test key to try the API safely, then a live key to publish tasks.</p>
            </div>
          ) : (
            <div className="table-scroll card cbc-table-card">
              <table className="table" data-testid="key-table">
                <caption className="visually-hidden">API keys</caption>
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col">Mode</th>
                    <th scope="col">Created</th>
                    <th scope="col">Last used</th>
                    <th scope="col">Status</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((key) => (
                    <tr key={key.id} data-testid="key-row" className={key.revoked_at ? 'cbc-row--dim' : undefined}>
                      <td>
                        <code>{key.prefix}…</code>
                      </td>
                      <td>
                        <span className={`badge cbc-mode cbc-mode--${key.mode}`}>{key.mode}</span>
                      </td>
                      <td><DateTime iso={key.created_at} /></td>
                      <td>{key.last_used_at ? <DateTime iso={key.last_used_at} /> : <span className="muted">never</span>}</td>
                      <td>{key.revoked_at ? <>revoked <DateTime iso={key.revoked_at} /></> : 'active'}</td>
                      <td>
                        {!key.revoked_at && (
                          <button type="button" className="button danger small" onClick={() => setRevoking(key)} aria-label={`Revoke key ${key.prefix}`}>
                            Revoke
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </LoadView>

      <FirstCallSection secret={created.find((k) => k.mode === 'live')?.secret} />

      <ConfirmDialog
        open={revoking !== null}
        danger
        busy={busy}
        title={`Revoke key ${revoking?.prefix ?? ''}…?`}
        confirmLabel="Revoke key"
        onConfirm={revoke}
        onClose={() => setRevoking(null)}
      >
        <p>Programs using this key get 401 from their next call on. This cannot be undone.</p>
      </ConfirmDialog>

      <LeaveGuard when={created.length > 0} title={created.length === 1 ? 'Leave without the new key’s secret?' : 'Leave without the new keys’ secrets?'}>
        <p>
          A secret is shown only on this page, once: after you leave it cannot be shown again, and a lost key can only be revoked and
          replaced. Copy it first, then press &ldquo;I have saved it&rdquo;.
        </p>
      </LeaveGuard>
    </div>
  );
}

function NewKey({
  created,
  onDismiss,
  panelRef,
}: {
  created: CreatedApiKeyResponse;
  onDismiss: () => void;
  panelRef: (el: HTMLElement | null) => void;
}) {
  const titleId = useId();
  const ref = useRef<HTMLElement>(null);
  // A key appears when it was just made: the keyboard (and a screen reader) goes to its secret, the next thing to act on.
  useEffect(() => ref.current?.focus(), []);
  return (
    <section
      ref={(el) => {
        ref.current = el;
        panelRef(el);
      }}
      tabIndex={-1} className="alert success cbc-new-key" aria-labelledby={titleId} data-testid="new-key" data-key-id={created.id}>
      <h2 id={titleId}>
        Your new {created.mode} key <code>{created.prefix}…</code>
      </h2>
      <p>Copy it now and keep it somewhere safe: it is shown this once only. Afterwards only its prefix is listed.</p>
      <div className="cbc-secret">
        <code data-testid="new-key-secret">{created.secret}</code>
        <CopyButton text={created.secret} what={`API key ${created.prefix}`} />
      </div>
      <button type="button" className="button small" onClick={onDismiss}>
        I have saved it
      </button>
    </section>
  );
}

function FirstCallSection({ secret }: { secret?: string }) {
  // The newest 100 projects in use are enough to pick one for an example call; an account with more
  // finds the others' UUIDs on the Projects page, and paging through all of them here would cost as much.
  const projects = useLoad(async (signal) => (await consoleApi.projects({ archived: false, limit: 100 }, signal)).data, []);
  const [chosen, setChosen] = useState('');
  const selectId = useId();
  return (
    <section className="card cbc-section" aria-labelledby="first-call-title">
      <h2 id="first-call-title">Your first call</h2>
      <LoadView state={projects.state} label="Loading projects">
        {(list) => {
          if (list.length === 0) {
            return (
              <p>
                <Link to="/console/projects/new">Create a project</Link> first; its UUID goes into every task you add.
              </p>
            );
          }
          const project = list.find((p) => p.uuid === chosen) ?? list[0];
          const required = templateVariables(project.template).filter((n) => project.variables[n] === null);
          const variables = [...new Set([project.image_variable, ...required])];
          return (
            <>
              <div className="cbc-inline-field">
                <label htmlFor={selectId}>Project</label>
                <select id={selectId} className="input" value={project.uuid} onChange={(e) => setChosen(e.target.value)}>
                  {list.map((p) => (
                    <option key={p.uuid} value={p.uuid}>
                      {p.display_name}
                    </option>
                  ))}
                </select>
              </div>
              <FirstCall projectUuid={project.uuid} variables={variables} imageVariable={project.image_variable} secret={secret} />
            </>
          );
        }}
      </LoadView>
    </section>
  );
}
