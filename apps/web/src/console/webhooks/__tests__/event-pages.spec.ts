import { describe, expect, it } from '@jest/globals';
import type { WebhookEvent } from '../../lib/console-api';
import { EVENT_PAGE, fetchEventsDownTo } from '../event-pages';

/** Events 0..n-1, newest first, one a minute apart: event i is i minutes old. */
function events(n: number): WebhookEvent[] {
  const now = Date.parse('2025-06-01T12:00:00Z');
  return Array.from({ length: n }, (_, i) => ({
    id: `e${String(i).padStart(4, '0')}`,
    type: 'task_completed',
    task_uuid: null,
    url: null,
    state: 'delivered',
    attempt_count: 1,
    next_attempt_at: null,
    delivered_at: null,
    created_at: new Date(now - i * 60_000).toISOString(),
    attempts: [],
  }));
}

/** The API over `log` (newest first): 50 a page, older than the event `before` names. */
function api(log: () => WebhookEvent[]) {
  const calls: Array<string | undefined> = [];
  const fetchPage = async (before?: string) => {
    calls.push(before);
    const all = log();
    const start = before === undefined ? 0 : all.findIndex((e) => e.id === before) + 1;
    return all.slice(start, start + EVENT_PAGE);
  };
  return { fetchPage, calls };
}

describe('fetchEventsDownTo', () => {
  it('loads one page when nothing older was paged to', async () => {
    const { fetchPage, calls } = api(() => events(120));
    expect(await fetchEventsDownTo(fetchPage)).toHaveLength(EVENT_PAGE);
    expect(calls).toEqual([undefined]);
  });

  it('keeps every event down to the floor when new events pushed the older pages down', async () => {
    let log = events(61);
    const { fetchPage } = api(() => log);
    const floor = log[60]; // the requester had loaded both pages: all 61 events
    // Five new events arrive: the first page now ends five events higher.
    const fresh = events(5).map((e, i) => ({ ...e, id: `new${i}`, created_at: new Date(Date.parse(log[0].created_at) + (5 - i) * 1000).toISOString() }));
    log = [...fresh, ...log];
    const shown = await fetchEventsDownTo(fetchPage, floor);
    expect(shown.map((e) => e.id)).toEqual(log.map((e) => e.id));
  });

  it('stops at the end of the log, and at the first page past the floor’s time when the floor left a filter', async () => {
    const log = events(130);
    const { fetchPage, calls } = api(() => log.filter((e) => e.id !== 'e0075'));
    const shown = await fetchEventsDownTo(fetchPage, log[75]);
    expect(shown).toHaveLength(100); // pages of 50 until one goes past e0075's minute
    expect(calls).toHaveLength(2);
    const all = await fetchEventsDownTo(fetchPage, log[129]);
    expect(all).toHaveLength(129);
  });
});
