import type { ErrorItem } from '@crowdbox/contracts';
import { useEffect, useId, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorItems, mayHaveArrived } from '../../api/client';
import { ErrorList } from '../../shell/error-list';
import { DateTime } from '../components/date-time';
import { LoadView } from '../components/load-view';
import { consoleApi, type WebhookEvent, type WebhookEventState } from '../lib/console-api';
import { plural, shortId } from '../lib/format';
import { useLoad } from '../lib/use-load';
import { EVENT_PAGE, fetchEventsDownTo } from './event-pages';

const FILTERS: Array<{ value: WebhookEventState | ''; label: string }> = [
  { value: '', label: 'All events' },
  { value: 'pending', label: 'Pending' },
  { value: 'delivered', label: 'Delivered' },
  { value: 'failed', label: 'Failed' },
];

/** The filter an address names (`?events=failed`); anything else is every event. */
function filterOf(params: URLSearchParams): WebhookEventState | '' {
  const value = params.get('events') ?? '';
  return FILTERS.find((f) => f.value === value)?.value ?? '';
}

/** What a Redeliver did to one event, in words. */
interface RedeliverResult {
  eventId: string;
  text: string;
  failed?: boolean;
}

/** While something is on its way the log refreshes itself this often. */
const POLL_MS = 3000;

/** The event log, newest first, 50 a page: every attempt with status, time and the reply's start; redeliver. */
export function EventLog({ onActivity }: { onActivity: () => void }) {
  // The filter is in the address (`?events=`), as the task list's are: leaving the page and coming Back, a
  // reload or a copied link shows the same filter.
  const [params, setParams] = useSearchParams();
  const state = filterOf(params);
  // The oldest event paged to with "Load older events": every load reaches down to it (fetchEventsDownTo).
  const floor = useRef<WebhookEvent | undefined>(undefined);
  // The page "Load older events" brought, shown until a load that reached its floor includes it.
  const [older, setOlder] = useState<{ floorId: string; events: WebhookEvent[] }>();
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [errors, setErrors] = useState<ErrorItem[]>([]);
  // Why the last "Load older events" failed, shown beside the button until the next try or another filter.
  const [olderErrors, setOlderErrors] = useState<ErrorItem[]>([]);
  const [notice, setNotice] = useState('');
  // What the last Redeliver did, shown under that event (or as the notice once it left the filter).
  const [outcome, setOutcome] = useState<RedeliverResult>();
  // The event whose Redeliver is on its way: a second press (a double click) would send it twice.
  const [redelivering, setRedelivering] = useState<string | null>(null);
  // The "Load older events" on its way: its reply belongs to the filter it was asked under.
  const olderRequest = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  // "Redeliver all failed events" goes with the failed events it queued: the keyboard goes to the notice
  // that says what it did, not to the page's start.
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const focusNotice = useRef(false);
  useEffect(() => {
    if (!notice || !focusNotice.current) return;
    focusNotice.current = false;
    noticeRef.current?.focus();
  }, [notice]);
  const filterId = useId();
  /**
   * Another filter (the menu, Back or Forward, a link to the page) shows its log from the top, and a "Load
   * older events" still on its way is dropped: its page holds the old filter's events. Refresh, the poll
   * and a redelivery keep every page shown. Declared before the load, whose effect then reads no old floor.
   */
  const filterShown = useRef(state);
  useEffect(() => {
    if (filterShown.current === state) return;
    filterShown.current = state;
    olderRequest.current?.abort();
    olderRequest.current = null;
    setLoadingOlder(false);
    floor.current = undefined;
    setOlder(undefined);
    // An error is about the log as the old filter showed it.
    setErrors([]);
    setOlderErrors([]);
    setNotice('');
    setOutcome(undefined);
  }, [state]);
  const events = useLoad(async (signal) => {
    const floorId = floor.current?.id;
    const list = await fetchEventsDownTo((before) => consoleApi.webhookEvents({ state: state || undefined, before }, signal), floor.current);
    return { list, floorId };
  }, [state]);

  const loaded = events.state.status === 'ok' ? events.state.data : undefined;
  const shown = withOlder(loaded, older);
  const pending = shown.some((e) => e.state === 'pending');
  const reload = events.reload;
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      reload();
      onActivity();
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, loaded, reload, onActivity]);

  // A filter replaces the entry, as the task list's menu does: Back leaves the page rather than undoing a filter.
  const changeFilter = (next: WebhookEventState | '') => {
    const search = new URLSearchParams(params);
    if (next) search.set('events', next);
    else search.delete('events');
    setParams(search, { replace: true });
  };

  const loadOlder = async () => {
    const last = shown[shown.length - 1];
    if (!last || loadingOlder) return;
    const request = new AbortController();
    olderRequest.current = request;
    setLoadingOlder(true);
    setOlderErrors([]);
    try {
      // The last event's id is the exact keyset: events can share the millisecond its created_at shows.
      const page = await consoleApi.webhookEvents({ state: state || undefined, before: last.id }, request.signal);
      if (request.signal.aborted) return;
      const oldest = page[page.length - 1];
      if (!oldest) {
        setNotice('No older events.');
        return;
      }
      floor.current = oldest;
      setOlder((o) => ({ floorId: oldest.id, events: [...(o && o.floorId !== loaded?.floorId ? o.events : []), ...page] }));
    } catch (error) {
      if (!request.signal.aborted) setOlderErrors(errorItems(error));
    } finally {
      if (olderRequest.current === request) {
        olderRequest.current = null;
        setLoadingOlder(false);
      }
    }
  };

  const redeliver = async (event: WebhookEvent) => {
    if (redelivering) return;
    setRedelivering(event.id);
    setOutcome(undefined);
    try {
      await consoleApi.redeliver(event.id);
      setOutcome({ eventId: event.id, text: `Event ${shortId(event.id)} is queued for delivery again.` });
      events.reload();
    } catch (error) {
      const why = errorItems(error).map((e) => e.detail).join('; ');
      if (mayHaveArrived(error)) {
        // It may have been queued: the log is read again (the event then shows pending) rather than
        // inviting a second press, which would send the event twice.
        setOutcome({ eventId: event.id, text: `No answer from the server: event ${shortId(event.id)} may have been queued for delivery again (${why}).`, failed: true });
        events.reload();
      } else {
        setOutcome({ eventId: event.id, text: `Event ${shortId(event.id)} was not redelivered: ${why}`, failed: true });
      }
    } finally {
      setRedelivering(null);
    }
  };

  const redeliverFailed = async () => {
    if (busy) return;
    setErrors([]);
    setBusy(true);
    try {
      const { redelivered, more } = await consoleApi.redeliverFailed();
      const left = more ? ' More failed events are left: press again.' : '';
      focusNotice.current = true;
      setNotice(`${plural(redelivered, 'failed event is', 'failed events are')} queued for delivery again.${left}`);
      events.reload();
    } catch (error) {
      setErrors(errorItems(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card cbc-section" aria-labelledby="events-title">
      <div className="cbc-section__head">
        <h2 id="events-title">Event log</h2>
        <div className="cbc-toolbar">
          <div className="cbc-inline-field">
            <label htmlFor={filterId}>Show</label>
            <select
              id={filterId}
              className="input"
              value={state}
              onChange={(e) => changeFilter(e.target.value as WebhookEventState | '')}
            >
              {FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </div>
          <button
            type="button"
            className="button small"
            data-testid="refresh-events"
            onClick={() => {
              events.reload();
              onActivity();
            }}
          >
            Refresh
          </button>
        </div>
      </div>
      <ErrorList errors={errors} />
      {notice && (
        <p className="alert info" role="status" tabIndex={-1} ref={noticeRef}>
          {notice}
        </p>
      )}
      {outcome && !shown.some((e) => e.id === outcome.eventId) && <RedeliverOutcome outcome={outcome} />}
      <LoadView state={events.state} label="Loading events" onRetry={events.reload}>
        {() => {
          if (shown.length === 0) return <p className="muted">No events{state ? ` in state ${state}` : ''} yet.</p>;
          return (
            <>
              {state === 'failed' && (
                <p>
                  {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
                  <button type="button" className="button small" onClick={redeliverFailed} aria-disabled={busy || undefined} data-testid="redeliver-failed">
                    {busy ? 'Queuing…' : 'Redeliver all failed events'}
                  </button>{' '}
                  <span className="field-hint">each gets a fresh schedule of attempts, as after a receiver&apos;s long outage</span>
                </p>
              )}
              <ol className="cbc-events" data-testid="event-log">
                {shown.map((event) => (
                  <EventItem
                    key={event.id}
                    event={event}
                    outcome={outcome?.eventId === event.id ? outcome : undefined}
                    redelivering={redelivering === event.id}
                    onRedeliver={() => redeliver(event)}
                  />
                ))}
              </ol>
              <ErrorList errors={olderErrors} title="Older events could not be loaded." />
              {shown.length >= EVENT_PAGE && (
                // aria-disabled, not disabled, while loading: a disabled button loses the focus to the page's body.
                <button type="button" className="button small" onClick={loadOlder} aria-disabled={loadingOlder || undefined}>
                  {loadingOlder ? 'Loading…' : 'Load older events'}
                </button>
              )}
            </>
          );
        }}
      </LoadView>
    </section>
  );
}

/** The loaded log, then the older pages a load has not reached down to yet. */
function withOlder(loaded: { list: WebhookEvent[]; floorId?: string } | undefined, older: { floorId: string; events: WebhookEvent[] } | undefined): WebhookEvent[] {
  if (!loaded) return [];
  if (!older || older.floorId === loaded.floorId) return loaded.list;
  const ids = new Set(loaded.list.map((e) => e.id));
  return [...loaded.list, ...older.events.filter((e) => !ids.has(e.id))];
}

/** What a Redeliver did, under its event's button; above the log when the event left the filter shown. */
function RedeliverOutcome({ outcome }: { outcome: RedeliverResult }) {
  return (
    <p className={`alert ${outcome.failed ? 'error' : 'info'}`} role="status" data-testid="redeliver-outcome">
      {outcome.text}
    </p>
  );
}

function EventItem({ event, outcome, redelivering, onRedeliver }: { event: WebhookEvent; outcome?: RedeliverResult; redelivering: boolean; onRedeliver: () => void }) {
  const last = event.attempts[event.attempts.length - 1];
  return (
    <li className="cbc-event" data-testid="event-row" data-event-id={event.id} data-event-state={event.state}>
      <details>
        <summary>
          <span className={`badge cbc-hook cbc-hook--${event.state}`}>{event.state}</span>
          <span className="cbc-event__type">{event.type}</span>
          <span className="cbc-mono cbc-break">{event.url ?? '—'}</span>
          <span className="muted cbc-small">
            <DateTime iso={event.created_at} /> · {event.attempts.length} {event.attempts.length === 1 ? 'attempt' : 'attempts'}
            {last?.status_code ? ` · last ${last.status_code}` : ''}
          </span>
        </summary>
        <div className="cbc-event__body">
          <dl className="cbc-facts">
            <dt>Event id</dt>
            <dd>
              <code>{event.id}</code>
            </dd>
            {event.task_uuid && (
              <>
                <dt>Task</dt>
                <dd>
                  <code>{event.task_uuid}</code>
                </dd>
              </>
            )}
            <dt>{event.delivered_at ? 'Delivered' : 'Next attempt'}</dt>
            <dd><DateTime iso={event.delivered_at ?? event.next_attempt_at} /></dd>
          </dl>
          {event.attempts.length === 0 ? (
            <p className="muted">No attempt yet{event.url ? ' (the address may still await its confirmation)' : ''}.</p>
          ) : (
            <div className="table-scroll">
              <table className="table cbc-attempts" data-testid="attempt-table">
                <thead>
                  <tr>
                    <th scope="col">Attempted</th>
                    <th scope="col" className="num">
                      Status
                    </th>
                    <th scope="col" className="num">
                      Time
                    </th>
                    <th scope="col">Reply</th>
                  </tr>
                </thead>
                <tbody>
                  {event.attempts.map((a, i) => (
                    <tr key={i} data-testid="attempt-row">
                      <td><DateTime iso={a.attempted_at} /></td>
                      <td className="num">
                        <span className={a.status_code && a.status_code < 300 ? 'cbc-ok' : 'cbc-bad'}>{a.status_code ?? 'no reply'}</span>
                      </td>
                      <td className="num">{a.duration_ms} ms</td>
                      <td>
                        {a.error && <p className="field-error">{a.error}</p>}
                        {a.response_excerpt ? <pre className="cbc-excerpt">{a.response_excerpt}</pre> : !a.error && <span className="muted">empty</span>}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {/* aria-disabled, not disabled, while busy: a disabled button loses the focus to the page's body. */}
          <button type="button" className="button small" aria-disabled={redelivering || undefined} onClick={onRedeliver} data-testid="redeliver">
            {redelivering ? 'Queuing…' : 'Redeliver'}
          </button>
          {outcome && <RedeliverOutcome outcome={outcome} />}
        </div>
      </details>
    </li>
  );
}
