/**
 * The account-wide identity of a callback address (API.md §2): lower-case scheme and host, default
 * port dropped. WHATWG URL parsing does exactly that and keeps path and query as given.
 */
export function normalizeCallbackUrl(url: string): string {
  return new URL(url).href;
}
