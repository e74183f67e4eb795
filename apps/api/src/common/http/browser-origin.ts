import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiException } from '../errors/api.exception';

/** The routes a browser's session cookie reaches: sign-up and log-in, the console, the worker app. */
const COOKIE_ROUTES = ['/api/session/', '/api/console/', '/api/work/'];
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);
/**
 * Reads of the cookie's routes refused from other sites all the same: a link or a navigation from any
 * page would otherwise start the account's whole data file, or a whole project's results, on the user's
 * rate limit and our database. (Route patterns, as Fastify names the matched route.)
 */
const GUARDED_READS = new Set(['/api/session/export', '/api/console/projects/:uuid/results']);
const JSON_TYPE = /^application\/json\s*(?:;|$)/i;

/**
 * Cross-site request forgery: a browser sends the session cookie with any request to us, whoever's page
 * made it, and `<form enctype="text/plain">` can post a body that parses as JSON. A page on another site
 * could then log a visitor in as its own account (their annotations earning for it), or cancel work and
 * rotate a secret for a signed-in requester; SameSite=Lax stops most of this, not a sibling subdomain.
 * So writes to the cookie's routes are refused when the browser says they come from another site
 * (Sec-Fetch-Site, or Origin where an older browser sends no Sec-Fetch-Site), and their bodies must be
 * declared JSON, which a form cannot do and a cross-site script cannot do without a CORS preflight we
 * never grant. Programs that send a Bearer token send neither header and are not affected; /api/v1
 * (API keys, no cookie) keeps reading any declared type as JSON (docs/decisions.md, "Body errors").
 */
export function registerBrowserOriginCheck(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    // The matched route's pattern, not request.url: the router decodes %73 before it matches, so
    // /api/%73ession/login reaches the log-in route while its raw URL names no cookie route.
    const route = request.routeOptions.url;
    if (route === undefined || !COOKIE_ROUTES.some((prefix) => route.startsWith(prefix))) return done();
    if (READS.has(request.method) && !GUARDED_READS.has(route)) return done();
    done(refusal(request));
  });
}

function refusal(request: FastifyRequest): ApiException | undefined {
  const site = request.headers['sec-fetch-site'];
  const origin = request.headers.origin;
  const foreign = site !== undefined ? site === 'cross-site' || site === 'same-site' : origin !== undefined && !sameHost(origin, request.host);
  if (foreign) return ApiException.of(403, 'root', 'requests from other sites are refused; use the Crowdbox app, or send the session as a Bearer token');
  if (hasBody(request) && !JSON_TYPE.test(request.headers['content-type'] ?? '')) {
    return ApiException.of(415, 'body', 'send the body as JSON with Content-Type: application/json');
  }
  return undefined;
}

function sameHost(origin: string, host: string): boolean {
  try {
    return new URL(origin).host === host;
  } catch {
    return false; // "null" (a sandboxed page, a file) or garbage: not ours
  }
}

function hasBody(request: FastifyRequest): boolean {
  const length = request.headers['content-length'];
  return request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
