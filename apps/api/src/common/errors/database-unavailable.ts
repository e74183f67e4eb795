import { isFromDatabase, QUERY_READ_TIMEOUT } from '../../database/query-timeout-client';
import { sqlState } from './sql-state';

/** pg-pool's messages when no connection came within DATABASE_CONNECT_TIMEOUT_MS. */
const NO_CONNECTION = new Set(['timeout exceeded when trying to connect', 'Connection terminated due to connection timeout']);
/** pg's messages for a connection that went away under a query (a failover, a restart, a cut network). */
const CONNECTION_LOST = new Set(['Connection terminated unexpectedly', 'Client has encountered a connection error and is not queryable']);
/**
 * SQLSTATEs of a server that is going away or not there yet: 57P01 admin_shutdown (a failover, or
 * pg_terminate_backend), 57P02 crash_shutdown, 57P03 cannot_connect_now (starting or stopping).
 */
const SERVER_GOING = new Set(['57P01', '57P02', '57P03']);
/** query_canceled: statement_timeout (DATABASE_STATEMENT_TIMEOUT_MS); the API cancels nothing itself. */
const STATEMENT_TIMEOUT = '57014';
/**
 * lock_not_available: a statement waited its lock_timeout for a row another transaction held (the
 * checkout that waits for a locked free task, work/checkouts.service.ts): contention, over in a moment.
 */
const LOCK_NOT_AVAILABLE = '55P03';
/**
 * Node's socket errors on the way to the server, which pg passes on as they are: nothing listens (a
 * server stopped or restarting: ECONNREFUSED), the connection was cut under a query (ECONNRESET, EPIPE),
 * the host or its name cannot be reached (a failover's DNS switch: ENOTFOUND, EAI_AGAIN). Counted only
 * on errors the database's client marked (isFromDatabase): Redis's client fails with the same codes.
 */
/** 53300 too_many_connections: more processes x DATABASE_POOL_SIZE than max_connections; the server is there. */
const TOO_MANY_CONNECTIONS = '53300';
const SOCKET_LOST = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

export type DatabaseUnavailable = 'busy' | 'lost';

/**
 * Whether `error` is the database being overloaded or away rather than a bug of ours: a client should
 * retry in a moment. `busy`: no connection, no answer, or a statement cut by statement_timeout or
 * lock_timeout in time;
 * `lost`: the connection or the server went away. Read from TypeORM's QueryFailedError as from pg's.
 */
export function databaseUnavailable(error: unknown): DatabaseUnavailable | undefined {
  const message = (error as { message?: unknown } | null)?.message;
  const code = sqlState(error);
  // No answer within DATABASE_QUERY_TIMEOUT_MS (query-timeout-client.ts) is counted busy: an overloaded
  // server looks the same from here as a silent one, and the connection is closed either way.
  if (typeof message === 'string' && (NO_CONNECTION.has(message) || message === QUERY_READ_TIMEOUT)) return 'busy';
  // Not the rest of class 53 (disk_full, out_of_memory): they are not over in a few seconds, and an
  // operator must see them as errors, not as warnings of a busy moment.
  if (code === STATEMENT_TIMEOUT || code === LOCK_NOT_AVAILABLE || code === TOO_MANY_CONNECTIONS) return 'busy';
  if (typeof message === 'string' && CONNECTION_LOST.has(message)) return 'lost';
  if (code !== undefined && SOCKET_LOST.has(code) && isFromDatabase(error)) return 'lost';
  // Class 08, connection exception, as a server reports it (08006 connection_failure, 08P01 …).
  if (code !== undefined && (SERVER_GOING.has(code) || code.startsWith('08'))) return 'lost';
  return undefined;
}
