/**
 * A lazily loaded part of the app (a dynamic `import()` of a chunk) that can be tried again after it
 * failed, without reloading the page. Neither `React.lazy` nor a react-router route `lazy` can: both keep
 * the first promise, rejected too, for the life of the page.
 *
 * The browser's side: a failed module fetch is not cached (the HTML spec changed to forget it), so a new
 * `import()` of the same URL fetches it again, the chunk and any import of it that failed. Debian's
 * Chromium does (apps/web-e2e/src/work/lazy-chunk-retry.spec.ts counts the requests), so no cache-busting
 * URL is needed; that would also load a second copy of a chunk whose first copy did run. A browser that
 * still caches the failure fails again, and the message's reload is the way out there.
 *
 * Vite's side: before the import it adds the chunk's stylesheets, each URL once per page; one that failed
 * is not added again, so the part would come back unstyled. A retry loads the failed stylesheets anew.
 */
export interface RetryableImport<T> {
  /** Starts the import, or joins the one under way or done; after a failure, a new attempt. */
  load(): Promise<T>;
  /** What the import gave, once it has: a part opened again renders at once, without a loading frame. */
  readonly loaded: T | undefined;
}

export function retryableImport<T>(importer: () => Promise<T>): RetryableImport<T> {
  let attempt: Promise<T> | undefined;
  let failedBefore = false;
  const chunk = {
    loaded: undefined as T | undefined,
    load(): Promise<T> {
      attempt ??= (failedBefore ? reloadFailedStylesheets() : Promise.resolve()).then(importer).then(
        (value) => {
          chunk.loaded = value;
          return value;
        },
        (error: unknown) => {
          attempt = undefined;
          failedBefore = true;
          throw error;
        },
      );
      return attempt;
    },
  };
  return chunk;
}

// Stylesheet links whose load failed. `error` does not bubble, but the capture phase passes the document.
const failedStylesheets = new Set<HTMLLinkElement>();
if (typeof document !== 'undefined') {
  document.addEventListener(
    'error',
    (event) => {
      if (event.target instanceof HTMLLinkElement && event.target.rel === 'stylesheet') failedStylesheets.add(event.target);
    },
    true,
  );
}

/** Replaces each failed stylesheet link by a new one (a new fetch); rejects when one fails again. */
function reloadFailedStylesheets(): Promise<void> {
  const links = [...failedStylesheets];
  failedStylesheets.clear();
  return Promise.all(
    links.map(
      (failed) =>
        new Promise<void>((resolve, reject) => {
          const link = failed.cloneNode() as HTMLLinkElement;
          link.addEventListener('load', () => resolve());
          link.addEventListener('error', () => reject(new Error(`Unable to load the stylesheet ${link.href}`)));
          failed.replaceWith(link);
        }),
    ),
  ).then(() => undefined);
}
