import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import chromiumLaunch from './chromium.json';
import { startImageServer, type ImageServer } from './image-server';
import { REPO_ROOT } from './repo-root';
import { startApiServer, type ApiServer, type SignedIn, type TestApp } from './server/api-server';

/**
 * Debian's Chromium and its flags (no download, no sandbox in CI), kept in chromium.json so that the
 * browser benchmark (bench/annotator-frames.mjs) launches the very same browser. CHROMIUM_PATH overrides.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? chromiumLaunch.executablePath;
export const CHROMIUM_ARGS = chromiumLaunch.args;

/**
 * Where the pages' screenshots go: docs/screenshots, the pictures of the README and docs/console.md,
 * only when refreshing them (`npm run screenshots`, which sets SCREENSHOTS=docs); otherwise tmp/screenshots
 * (ignored by git). Pixels differ from run to run, so a plain test run must not leave tracked files changed.
 */
export const SCREENSHOT_DIR = join(REPO_ROOT, ...(process.env.SCREENSHOTS === 'docs' ? ['docs', 'screenshots'] : ['tmp', 'screenshots']));

export interface PageOptions {
  /** Sign this user in (by their session cookie) before the first navigation. */
  as?: SignedIn;
  viewport?: { width: number; height: number };
  /** A touch screen: touch events, and `(pointer: coarse)` media queries match. */
  hasTouch?: boolean;
}

/**
 * One spec file's world: the real API (with the built web app) on a private database, an image host,
 * and a Chromium. Every page's console errors and uncaught exceptions are collected; call
 * `assertNoConsoleErrors()` after each test (support/setup does it through `useHarness`).
 */
export class Harness {
  private readonly consoleErrors: string[] = [];
  private readonly contexts: BrowserContext[] = [];

  private constructor(
    private readonly server: ApiServer,
    readonly images: ImageServer,
    readonly browser: Browser,
  ) {}

  static async start(): Promise<Harness> {
    const webDist = process.env.CB_E2E_WEB_DIST;
    if (!webDist) throw new Error('CB_E2E_WEB_DIST is not set: run through apps/web-e2e/jest.config.js (its global setup builds the web app)');
    const [server, images, browser] = await Promise.all([
      startApiServer(webDist),
      startImageServer(),
      chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS }),
    ]);
    return new Harness(server, images, browser);
  }

  get baseUrl(): string {
    return this.server.baseUrl;
  }

  /** The in-process API: `api.request({method, url, headers, body})` and `api.db` (TypeORM DataSource). */
  get api(): TestApp {
    return this.server.t;
  }

  /** A fresh browser context and page at 1280x800 unless told otherwise, optionally signed in. */
  async newPage(options: PageOptions = {}): Promise<Page> {
    const context = await this.browser.newContext({
      baseURL: this.baseUrl,
      viewport: options.viewport ?? { width: 1280, height: 800 },
      hasTouch: options.hasTouch ?? false,
    });
    this.contexts.push(context);
    if (options.as) {
      await context.addCookies([{ name: 'cb_session', value: options.as.token, url: this.baseUrl, httpOnly: true, sameSite: 'Lax' }]);
    }
    const page = await context.newPage();
    page.on('console', (msg) => {
      if (msg.type() !== 'error' || this.isHandledApiAnswer(msg.text(), msg.location().url)) return;
      this.consoleErrors.push(`console.error on ${page.url()}: ${msg.text()}${msg.location().url ? ` (${msg.location().url})` : ''}`);
    });
    page.on('pageerror', (error) => this.consoleErrors.push(`uncaught exception on ${page.url()}: ${error.message}`));
    page.setDefaultTimeout(10_000);
    return page;
  }

  /**
   * Chromium logs every 4xx reply as "Failed to load resource". For the API's own 4xx answers (401 from
   * /api/session/me when signed out, 422 field errors, 404 `no task available`) that is the API talking,
   * and the app shows those errors to the user; so those alone are let through. A 5xx, a failed asset or
   * image, and every message the app itself logs still fail the test.
   */
  private isHandledApiAnswer(text: string, url: string | undefined): boolean {
    return /^Failed to load resource: the server responded with a status of 4\d\d\b/.test(text) && !!url?.startsWith(`${this.baseUrl}/api/`);
  }

  /** Returns and forgets the errors collected so far, for a test that expects some (and checks them itself). */
  takeConsoleErrors(): string[] {
    return this.consoleErrors.splice(0);
  }

  /** Throws (failing the test) when any page logged an error since the last call. */
  assertNoConsoleErrors(): void {
    const errors = this.consoleErrors.splice(0);
    if (errors.length > 0) throw new Error(`The browser reported ${errors.length} error(s):\n${errors.join('\n')}`);
  }

  /** Saves a PNG of the page (or of what `page` shows) as <SCREENSHOT_DIR>/<name>.png. */
  async screenshot(page: Page, name: string): Promise<void> {
    mkdirSync(SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
  }

  async close(): Promise<void> {
    for (const context of this.contexts.splice(0)) await context.close().catch(() => undefined);
    await this.browser.close().catch(() => undefined);
    await Promise.all([this.images.close(), this.server.close()]);
  }
}

/**
 * Wires a Harness into a spec file: started before all tests, console errors checked after each,
 * closed after all. Returns a getter, since the harness exists only once beforeAll has run.
 */
export function useHarness(): () => Harness {
  let harness: Harness | undefined;
  beforeAll(async () => {
    harness = await Harness.start();
  }, 60_000);
  afterEach(() => harness?.assertNoConsoleErrors());
  afterAll(async () => {
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the harness has not started (beforeAll failed?)');
    return harness;
  };
}
