import type { WebhookEvent } from '../lib/console-api';

/** Events a page of GET /api/console/webhooks/events holds (the API's PAGE). */
export const EVENT_PAGE = 50;

/** One page of the log, newest first: from the top, or older than the event `before` names. */
export type FetchEventPage = (before?: string) => Promise<WebhookEvent[]>;

/**
 * The log from its top down to `floor`, the oldest event the requester has paged to. Every refresh
 * reloads all of it, page by page: new events push the top page's last events onto the next page, so
 * reloading only the first page and keeping the older pages as they were lost those in between.
 * Stops at the page that holds `floor` or goes past its time, or at the end of the log (`floor` may have
 * left a state filter meanwhile, so its id alone is not enough).
 */
export async function fetchEventsDownTo(fetchPage: FetchEventPage, floor?: WebhookEvent): Promise<WebhookEvent[]> {
  const events: WebhookEvent[] = [];
  const seen = new Set<string>();
  let before: string | undefined;
  for (;;) {
    const page = await fetchPage(before);
    for (const event of page) {
      if (!seen.has(event.id)) events.push(event);
      seen.add(event.id);
    }
    const last = page[page.length - 1];
    if (!last || page.length < EVENT_PAGE || !floor) return events;
    if (seen.has(floor.id) || Date.parse(last.created_at) < Date.parse(floor.created_at)) return events;
    before = last.id;
  }
}
