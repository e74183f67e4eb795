import type { ErrorBody, ErrorItem } from '@crowdbox/contracts';
import { HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bodyTooLarge } from '../http/json-body.parser';
import { ApiException } from './api.exception';
import { databaseUnavailable, type DatabaseUnavailable } from './database-unavailable';

export interface ErrorResponse {
  status: number;
  body: ErrorBody;
  headers: Record<string, string>;
}

/** Fastify's own errors (body parsing, limits) carry a code and a statusCode. */
interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
}

const STATUS_WORDS: Record<number, string> = {
  400: 'bad request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not found',
  405: 'method not allowed',
  413: 'body too large',
  415: 'unsupported media type',
  429: 'too many requests',
};

/**
 * The single mapping from anything thrown to the contract's error shape. Both the Nest filter and the
 * Fastify error handler call it, so no other code writes an error body.
 */
export function toErrorResponse(error: unknown, requestId: string): ErrorResponse {
  if (error instanceof ApiException) {
    return { status: error.status, body: { errors: error.errors }, headers: error.headers };
  }
  if (error instanceof HttpException) {
    // Our code throws ApiException only; an HttpException is Nest's router or a Fastify body error
    // that Nest wrapped (losing its code), so 400/413/415 are about the body.
    const status = error.getStatus();
    const field = status === 400 || status === 413 || status === 415 ? 'body' : 'root';
    if (status < 500) return single(status, field, plainWords(status, error.message));
  } else if (isFastifyError(error) && error.statusCode && error.statusCode < 500) {
    const status = error.statusCode;
    const field = error.code?.startsWith('FST_ERR_CTP') ? 'body' : 'root';
    return single(status, field, plainWords(status, error.message));
  }
  const unavailable = databaseUnavailable(error);
  if (unavailable) return toErrorResponse(databaseUnavailableError(unavailable), requestId);
  return single(500, 'root', `internal error (request id ${requestId})`);
}

/** The 503 of a database overloaded or away: thrown where the code itself finds it so, answered for its errors. */
export function databaseUnavailableError(kind: DatabaseUnavailable): ApiException {
  return ApiException.of(503, 'root', DATABASE_UNAVAILABLE[kind], { 'retry-after': '2' });
}

/** What a client is told when the database is overloaded or away (database-unavailable.ts): retry soon. */
const DATABASE_UNAVAILABLE: Record<DatabaseUnavailable, string> = {
  busy: 'the database is busy; retry in a few seconds',
  lost: 'the connection to the database was lost; retry in a few seconds',
};

/** Writes an error response; used by the filter and the Fastify error handler alike. */
export function sendError(reply: FastifyReply, request: FastifyRequest, error: unknown): void {
  const response = toErrorResponse(isBodyTooLarge(error) ? bodyTooLarge(request.routeOptions.bodyLimit) : error, String(request.id));
  // Only the unexpected is an error to look into; a 503 we chose (busy, not ready) is a warning.
  if (response.status === 500) request.log.error({ err: error }, 'unhandled error');
  else if (response.status >= 500) request.log.warn({ err: error, status: response.status }, 'service unavailable');
  void reply.status(response.status).headers(response.headers).type('application/json; charset=utf-8').send(response.body);
}

function single(status: number, field: string, detail: string): ErrorResponse {
  const errors: ErrorItem[] = [{ field, detail }];
  return { status, body: { errors }, headers: {} };
}

function plainWords(status: number, message: string | undefined): string {
  return message && message.length < 300 ? message : (STATUS_WORDS[status] ?? 'request failed');
}

/** Fastify's refusal of a body over the route's limit, as Fastify raises it or as Nest wrapped it (status only). */
function isBodyTooLarge(error: unknown): boolean {
  if (error instanceof HttpException) return error.getStatus() === 413;
  return isFastifyError(error) && error.code === 'FST_ERR_CTP_BODY_TOO_LARGE';
}

function isFastifyError(error: unknown): error is FastifyLikeError {
  return typeof error === 'object' && error !== null && 'statusCode' in error;
}
