import type { FastifyReply, FastifyRequest } from 'fastify';

export const SESSION_COOKIE = 'cb_session';

/**
 * The session cookie, read and written only here. @fastify/cookie is registered with `hook: false`, so
 * its per-request hooks stay off the requester API's hot path; the session routes parse and serialize
 * the one cookie they care about themselves.
 */
export function readSessionCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  return request.server.parseCookie(header)[SESSION_COOKIE] || undefined;
}

export function setSessionCookie(reply: FastifyReply, token: string, expires: Date, secure: boolean): void {
  reply.header(
    'set-cookie',
    reply.server.serializeCookie(SESSION_COOKIE, token, { httpOnly: true, sameSite: 'lax', path: '/', secure, expires }),
  );
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.header('set-cookie', reply.server.serializeCookie(SESSION_COOKIE, '', { path: '/', expires: new Date(0) }));
}
