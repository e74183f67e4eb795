import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Headers of the app's page, beside the CSP its HTML carries in a meta tag (apps/web/vite.config.mts):
 * frame-ancestors works only as a header, and no other site may frame the annotator or the console to
 * trick a click (clickjacking: "Cancel outstanding", "Revoke"). X-Frame-Options for older browsers.
 */
const PAGE_HEADERS = {
  'content-security-policy': "frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

/** Paths the server answers itself: never the web app, so their 404 stays the API's JSON error. */
const SERVER_PREFIXES = ['/api', '/healthz', '/readyz', '/assets'];

/**
 * The built web app (apps/web → dist/web) in production: its files under /assets, and index.html for
 * every page load the server has no route for. The client router owns the pages (/login, /work/…,
 * /console/…, and its own "not found"), so a reload or a typed URL works on any of them without a list
 * to keep in step here. A page load is a GET or HEAD that accepts text/html outside SERVER_PREFIXES;
 * anything else without a route (an API call, /api/… even in a browser, a missing asset) keeps the
 * JSON 404 of the error filter.
 */
export class WebApp {
  private constructor(
    private readonly distDir: string,
    private readonly html: string,
  ) {}

  /** undefined when there is no build to serve (WEB_DIST_DIR unset, or without index.html): API only. */
  static load(distDir: string | undefined): WebApp | undefined {
    const index = distDir ? join(distDir, 'index.html') : undefined;
    if (!distDir || !index || !existsSync(index)) return undefined;
    return new WebApp(distDir, readFileSync(index, 'utf8'));
  }

  /** Vite's hashed files: cached for good. */
  async registerAssets(app: NestFastifyApplication): Promise<void> {
    const assets = join(this.distDir, 'assets');
    if (existsSync(assets)) {
      await app.register(fastifyStatic, {
        root: assets,
        prefix: '/assets/',
        immutable: true,
        maxAge: '365d',
        setHeaders: (reply) => void reply.header('x-content-type-options', 'nosniff'),
      });
    }
  }

  /** Sends index.html when this request, which matched no route, is a page load; false leaves it to the 404. */
  serveUnmatched(request: FastifyRequest, reply: FastifyReply): boolean {
    if (!isPageLoad(request)) return false;
    void reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').headers(PAGE_HEADERS).send(this.html);
    return true;
  }
}

export function isPageLoad(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const accept = request.headers.accept;
  if (typeof accept !== 'string' || !accept.toLowerCase().includes('text/html')) return false;
  const path = request.url.split('?')[0];
  return !SERVER_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
