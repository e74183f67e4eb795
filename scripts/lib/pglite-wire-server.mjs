// A Postgres wire-protocol server for one PGlite, shared by many client connections.
//
// PGlite has a single backend session, so clients must take turns. PGLiteSocketServer (pglite-socket
// 0.2.17) switches clients between any two protocol messages unless an explicit transaction is open,
// so under concurrency one client's Parse lands between another's Parse and Execute and replaces its
// unnamed statement: `portal "" does not exist` (seen with 40 parallel add_task calls). This server
// reuses pglite-socket's PGLiteSocketHandler (message framing, SSL and cancel requests) with a queue
// that gives a client the session from its first message until the backend is idle again: after a
// Sync or a simple Query, outside a transaction block.
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';
import { createServer } from 'node:net';

const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
const SYNC_MESSAGE = new Uint8Array([SYNC, 0, 0, 0, 4]);

/** Listens on host:port (0 = any free port); resolves with the bound port and a stop(). */
export async function serveOverWire(db, { host = '127.0.0.1', port = 0, maxConnections = 20 } = {}) {
  const queue = new SessionQueue(db);
  const handlers = new Set();
  const server = createServer((socket) => {
    if (handlers.size >= maxConnections) {
      socket.end();
      return;
    }
    const handler = new PGLiteSocketHandler({ queryQueue: queue, closeOnDetach: true });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    handler.attach(socket).catch(() => socket.destroy());
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  return {
    port: server.address().port,
    async stop() {
      await Promise.all([...handlers].map((handler) => handler.detach(true)));
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The queue interface PGLiteSocketHandler calls: enqueue, clearQueueForHandler, clearTransactionIfNeeded. */
class SessionQueue {
  #db;
  #owner = null;
  /** The owner sent messages after its last Sync: the backend still holds its unnamed statement/portal. */
  #midExchange = false;
  #waiting = [];
  #tail = new Map(); // per client: its messages run strictly in order, one at a time

  constructor(db) {
    this.#db = db;
  }

  enqueue(handlerId, message, onData) {
    const previous = this.#tail.get(handlerId) ?? Promise.resolve();
    const run = previous.catch(() => undefined).then(() => this.#run(handlerId, message, onData));
    this.#tail.set(handlerId, run);
    return run;
  }

  async #run(handlerId, message, onData) {
    // A client's Terminate must not reach the one backend everybody shares (PGlite ignores it anyway).
    if (message[0] === TERMINATE) return 0;
    await this.#acquire(handlerId);
    if (!this.#tail.has(handlerId)) {
      // The client left while it waited for its turn: pass the session on without touching it.
      this.#release(handlerId);
      throw new Error('client disconnected');
    }
    let bytes = 0;
    await this.#db.runExclusive(() =>
      this.#db.execProtocolRawStream(message, {
        onRawData: (data) => {
          bytes += data.length;
          onData(data);
        },
      }),
    );
    // A startup message (first byte 0: a length, no type) ends with ReadyForQuery, like Sync and Query.
    const endsExchange = message[0] === SYNC || message[0] === QUERY || message[0] === 0;
    this.#midExchange = !endsExchange;
    if (endsExchange && !this.#db.isInTransaction()) this.#release(handlerId);
    return bytes;
  }

  #acquire(handlerId) {
    if (this.#owner === null || this.#owner === handlerId) {
      this.#owner = handlerId;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => this.#waiting.push({ handlerId, resolve, reject }));
  }

  /** Only the owner hands the session on (a late reply of a client that already left must not). */
  #release(handlerId) {
    if (this.#owner !== handlerId) return;
    this.#owner = null;
    this.#midExchange = false;
    const next = this.#waiting.shift();
    if (!next) return;
    this.#owner = next.handlerId;
    next.resolve();
  }

  clearQueueForHandler(handlerId) {
    const mine = this.#waiting.filter((w) => w.handlerId === handlerId);
    this.#waiting = this.#waiting.filter((w) => w.handlerId !== handlerId);
    for (const w of mine) w.reject(new Error('client disconnected'));
    this.#tail.delete(handlerId);
  }

  /** A client that goes away while holding the session must not leave a statement or transaction behind. */
  async clearTransactionIfNeeded(handlerId) {
    if (this.#owner !== handlerId) return;
    if (this.#midExchange) {
      await this.#db.runExclusive(() => this.#db.execProtocolRawStream(SYNC_MESSAGE, { onRawData: () => undefined }));
    }
    if (this.#db.isInTransaction()) await this.#db.exec('ROLLBACK').catch(() => undefined);
    this.#release(handlerId);
  }
}
