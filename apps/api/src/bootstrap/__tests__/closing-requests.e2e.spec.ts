import { connect } from 'node:net';
import { Client } from 'pg';
import { eventually } from '../../../test/eventually';
import { aRequester } from '../../../test/factories';
import { startTestApp } from '../../../test/test-app';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';

/** The raw HTTP/1.1 responses a socket received until it closed, split at each status line. */
function responses(raw: string): string[] {
  return raw.split(/(?=HTTP\/1\.1 \d{3} )/).filter((part) => part.length > 0);
}

/**
 * A request that reaches the server while it closes: on a kept-alive connection, as a load balancer's
 * are, during a rolling deploy (closing-requests.ts).
 */
describe('a request arriving while the server closes', () => {
  it('is answered 503 in the contract shape, with a request id, Retry-After and Connection: close', async () => {
    const name = await createTestDatabase();
    const t = await startTestApp({ CACHE_TTL_MS: '0' }, { database: name, role: 'http' });
    const locker = new Client({ connectionString: databaseUrl(name) });
    await locker.connect();
    try {
      const owner = await aRequester(t);
      await t.app.listen(0, '127.0.0.1');
      const { port } = t.app.getHttpServer().address() as { port: number };
      const socket = connect(port, '127.0.0.1');
      let raw = '';
      socket.on('data', (chunk) => (raw += chunk.toString('utf8')));
      const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));

      // A first request held in flight (its project's row locked), so the connection is not idle and the
      // close waits for it.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE projects');
      socket.write(`GET /api/v1/projects/${owner.projectUuid} HTTP/1.1\r\nHost: localhost\r\napikey: ${owner.liveKey}\r\n\r\n`);
      await eventually(async () => (await locker.query(`SELECT 1 FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`, [name])).rows.length > 0);

      const closing = t.app.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\nx-request-id: while-closing\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      await locker.query('ROLLBACK');
      await closing;
      await ended;

      const [first, second] = responses(raw);
      expect(first).toMatch(/^HTTP\/1\.1 200 /);
      expect(second).toMatch(/^HTTP\/1\.1 503 /);
      expect(second).toMatch(/\r\nx-request-id: while-closing\r\n/i);
      expect(second).toMatch(/\r\nretry-after: 1\r\n/i);
      expect(second).toMatch(/\r\nconnection: close\r\n/i);
      expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual({ errors: [{ field: 'root', detail: 'this server is shutting down; retry' }] });
    } finally {
      await locker.end();
      await dropTestDatabase(name);
    }
  });
});
