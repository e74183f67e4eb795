import type { Page, Route } from 'playwright-core';

/** The next request to a URL, held on its way until the test answers it. */
export interface HeldRequest {
  /** Resolves once the request has been made and is held. */
  reached: Promise<Route>;
  /** Lets it through to the server, once it is held (a request the page aborted meanwhile is let go quietly). */
  release(): Promise<void>;
}

/**
 * Holds the next request whose URL matches `url`. Resolves once the interception is in place, so the action
 * that makes the request must come after the await: with `void page.route(…)` the action could reach the
 * browser first, the request went through unheld, and the test waited for it until its time ran out (a CI
 * run failed on it).
 */
export async function holdNextRequest(page: Page, url: string | ((url: URL) => boolean)): Promise<HeldRequest> {
  let held!: (route: Route) => void;
  const reached = new Promise<Route>((resolve) => {
    held = resolve;
  });
  await page.route(url, (route) => held(route), { times: 1 });
  return {
    reached,
    release: async () => (await reached).continue().catch(() => undefined),
  };
}

/**
 * The next request matching `url` (and `method`, when given) reaches the server, which acts on it; its
 * answer is lost on the way back, as over a dropped connection (the page's fetch fails). Resolves once
 * the interception is in place; the function it returns gives the status the server answered, once it has.
 */
export async function loseNextAnswer(page: Page, url: string, method?: string): Promise<() => number | undefined> {
  let status: number | undefined;
  await page.route(
    url,
    async (route) => {
      if (method !== undefined && route.request().method() !== method) return route.fallback();
      status = (await route.fetch()).status();
      await route.abort('failed');
    },
    { times: 1 },
  );
  return () => status;
}
