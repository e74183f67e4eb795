/**
 * The account-wide identity of a callback address (API.md §2): lower-case scheme and host, default
 * port dropped. WHATWG URL parsing does exactly that and keeps path and query as given. The fragment
 * is dropped: it is never sent in a request, so `…/hook#a` and `…/hook#b` are one receiver, with one
 * challenge and one row in the console, not one per fragment.
 */
export function normalizeCallbackUrl(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  return parsed.href;
}

/**
 * An address as the console shows it. add_task refuses a callback_url with a user name or password
 * (libs/contracts, `callbackUrl`), but an address registered before that may hold one: its user
 * information is shown as `***`, never in clear, the user name too (`https://<token>@host/` is a common
 * way to put a secret there).
 */
export function displayCallbackUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.username === '' && parsed.password === '') return url;
  parsed.username = '***';
  parsed.password = '';
  return parsed.href;
}
