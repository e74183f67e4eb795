import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/config.schema';

/** The session cookie's name over plain HTTP (development, tests). */
export const SESSION_COOKIE = 'cb_session';
/**
 * Its name wherever it is Secure. A `__Host-` cookie is refused by browsers unless it comes over HTTPS
 * from this very host, with Path=/ and no Domain: a sibling subdomain, or a network attacker answering a
 * plain-HTTP request for this host, cannot plant one. They could plant a `cb_session` (Domain=.parent,
 * Path=/api/work), which browsers send before ours (longer path first) and a parser keeps as the first
 * one: the victim's work would then run as the attacker's account, silently (docs/decisions.md,
 * "Session cookie"). Over HTTPS only this name is read.
 */
export const SECURE_SESSION_COOKIE = '__Host-cb_session';

/** The settings that decide whether the cookie is Secure. */
export type CookieSettings = Pick<AppConfig, 'COOKIE_SECURE' | 'NODE_ENV'>;

/**
 * Whether the session cookie is Secure for this request: HTTPS-only in production, and wherever the
 * request came over HTTPS (directly, or through a proxy TRUST_PROXY believes), whatever NODE_ENV says;
 * COOKIE_SECURE overrides both. Its name follows (SECURE_SESSION_COOKIE).
 */
function cookieIsSecure(config: CookieSettings, request: FastifyRequest): boolean {
  return config.COOKIE_SECURE ?? (config.NODE_ENV === 'production' || request.protocol === 'https');
}

const nameFor = (secure: boolean) => (secure ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/**
 * The session cookie, read and written only here. @fastify/cookie is registered with `hook: false`, so
 * its per-request hooks stay off the requester API's hot path; the session routes parse and serialize
 * the one cookie they care about themselves. A header that holds the cookie's name more than once
 * (one planted beside ours, over plain HTTP) names no session: which one is ours cannot be told, and a
 * parser keeps the first, the browser's longest-path one, the planted one.
 */
export function readSessionCookie(request: FastifyRequest, config: CookieSettings): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const name = nameFor(cookieIsSecure(config, request));
  let seen = 0;
  for (const pair of header.split(';')) if (pair.slice(0, pair.indexOf('=')).trim() === name) seen += 1;
  if (seen !== 1) return undefined;
  return request.server.parseCookie(header)[name] || undefined;
}

export function setSessionCookie(reply: FastifyReply, token: string, expires: Date, config: CookieSettings): void {
  const secure = cookieIsSecure(config, reply.request);
  reply.header(
    'set-cookie',
    reply.server.serializeCookie(nameFor(secure), token, { httpOnly: true, sameSite: 'lax', path: '/', secure, expires }),
  );
}

export function clearSessionCookie(reply: FastifyReply, config: CookieSettings): void {
  const secure = cookieIsSecure(config, reply.request);
  reply.header('set-cookie', reply.server.serializeCookie(nameFor(secure), '', { path: '/', secure, expires: new Date(0) }));
}
