import { Client } from 'pg';

/**
 * Set on every error this client's connect or queries fail with: a socket error (ECONNREFUSED while the
 * server is down, ECONNRESET) says only that some peer went away, and the same codes come from Redis's
 * client; this says the peer was the database (common/errors/database-unavailable.ts).
 */
export const FROM_DATABASE = Symbol('from the database connection');

function markFromDatabase(error: unknown): void {
  if (error !== null && typeof error === 'object') (error as { [FROM_DATABASE]?: boolean })[FROM_DATABASE] = true;
}

/** Whether `error` came from a database connection (FROM_DATABASE), also as TypeORM's QueryFailedError wraps it. */
export function isFromDatabase(error: unknown): boolean {
  if (error === null || typeof error !== 'object') return false;
  const marked = (e: object) => (e as { [FROM_DATABASE]?: boolean })[FROM_DATABASE] === true;
  const driverError = (error as { driverError?: unknown }).driverError;
  return marked(error) || (driverError !== null && typeof driverError === 'object' && marked(driverError));
}

/** pg's message for a query whose answer did not come within query_timeout. */
export const QUERY_READ_TIMEOUT = 'Query read timeout';

/**
 * The pool's client (pg-pool's `Client` option). pg's query_timeout fails a query whose answer has not
 * come in time, but keeps the connection with that query still on it, and sends nothing more on it until
 * the answer comes: every later query on that connection waited out the timeout as well, so a peer that
 * stopped answering (a frozen proxy, a failover that left the socket up) kept its pool slot for good,
 * and TCP keepalive never noticed, as the socket itself was fine. This client closes its connection
 * instead (and after a FATAL error, see closeIfDead); the pool then drops it and opens a new one when
 * it needs one.
 */
export class QueryTimeoutClient extends Client {
  constructor(...args: ConstructorParameters<typeof Client>) {
    super(...args);
    // pg emits 'error' on a client whose connection dies (a reset, the server ending the session), and
    // pg-pool listens only while the client is idle in the pool. A client held outside TypeORM (the
    // checkout's lease, the consensus refresh; TypeORM listens on those it holds) had no listener then,
    // and an 'error' nobody listens for ends the process: a PostgreSQL restart or failover took every
    // HTTP process with a checkout in flight down with it. Nothing is lost by listening: pg has already
    // failed the client's queries with this error and marked it not queryable, so its holder's next query
    // fails and the pool drops it on release.
    this.on('error', () => undefined);
  }

  // Both forms of pg's connect() (pg-pool passes a callback) go through here unchanged but for the mark.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override connect(...args: any[]): any {
    const callback = args[0];
    if (typeof callback === 'function') {
      return super.connect((error: Error) => {
        if (error) markFromDatabase(error);
        (callback as (error: Error) => void)(error);
      });
    }
    return super.connect().catch((error: unknown) => {
      markFromDatabase(error);
      throw error;
    });
  }

  // Every form of pg's query() (promise, callback, submittable) goes through here unchanged.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as (error: unknown, result: unknown) => void;
      args[last] = (error: unknown, result: unknown) => {
        this.failed(error);
        callback(error, result);
      };
      return super.query(...(args as Parameters<Client['query']>));
    }
    const result: unknown = super.query(...(args as Parameters<Client['query']>));
    if (result instanceof Promise) {
      return result.catch((error: unknown) => {
        this.failed(error);
        throw error;
      });
    }
    return result;
  }

  private failed(error: unknown): void {
    if (!error) return;
    markFromDatabase(error);
    this.closeIfDead(error);
  }

  /**
   * This connection's query_timeout in ms, 0 for none; settable. The migrations lift it: an index built on
   * a large table takes minutes, and only statement_timeout (lifted too) may stop it, server-side.
   */
  get queryTimeoutMs(): number {
    return this.parameters().query_timeout || 0;
  }
  set queryTimeoutMs(ms: number) {
    this.parameters().query_timeout = ms;
  }

  /** pg reads query_timeout from here at each query (not typed by @types/pg). */
  private parameters(): { query_timeout?: number } {
    return (this as unknown as { connectionParameters: { query_timeout?: number } }).connectionParameters;
  }

  /**
   * Closes the connection after a query read timeout, and after a FATAL error (the server ended the
   * session: a failover, pg_terminate_backend), whose socket may not have closed yet when the query's
   * caller hands the client back: the pool would give it to the next query, to fail as well.
   */
  private closeIfDead(error: unknown): void {
    const { message, severity } = (error ?? {}) as { message?: unknown; severity?: unknown };
    if (message !== QUERY_READ_TIMEOUT && severity !== 'FATAL' && severity !== 'PANIC') return;
    // end() destroys the socket when a query is still on it; the pool's release then drops this client.
    this.end().catch(() => undefined);
  }
}
