import { createServer, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { eventually } from '../../../test/eventually';
import { aRequester } from '../../../test/factories';
import { startFreezableProxy } from '../../../test/freezable-proxy';
import { startTestApp } from '../../../test/test-app';
import { createEmptyDatabase, createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { within } from '../../common/within';
import { MIGRATIONS, dataSourceOptions } from '../data-source.options';
import { runMigrations } from '../run-migrations';

/** A migration that takes half a second, as CREATE INDEX CONCURRENTLY on a large table takes minutes. */
class SlowIndex9999999999999 implements MigrationInterface {
  name = 'SlowIndex9999999999999';
  transaction = false as const;
  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('SELECT pg_sleep(0.5)');
  }
  async down(): Promise<void> {
    // Nothing to undo.
  }
}

/**
 * The pool's timeouts (DATABASE_CONNECT_TIMEOUT_MS, _STATEMENT_, _QUERY_, _IDLE_IN_TRANSACTION_TIMEOUT_MS), what
 * the API answers when one fires, and what is exempt.
 */
describe('database timeouts', () => {
  it('gives up connecting to a server that accepts but never answers, after the connect timeout', async () => {
    // A TCP peer that takes the connection and says nothing: a half-dead host, a stuck proxy.
    const sockets: Socket[] = [];
    const silent: Server = createServer((socket) => sockets.push(socket));
    const port = await new Promise<number>((resolve) => silent.listen(0, '127.0.0.1', () => resolve((silent.address() as { port: number }).port)));
    const dataSource = new DataSource(dataSourceOptions(`postgres://postgres@127.0.0.1:${port}/crowdbox`, { poolSize: 2, connectTimeoutMs: 500 }));
    try {
      const from = Date.now();
      const outcome = await within(
        dataSource.initialize().then(
          () => 'connected',
          (error: Error) => error.message,
        ),
        10_000,
        'still waiting',
      );
      expect(outcome).toMatch(/timeout/i);
      expect(Date.now() - from).toBeLessThan(3_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('cuts a statement at DATABASE_STATEMENT_TIMEOUT_MS (30 s unless set; 0 sets none), ends a transaction left idle, and never JIT-compiles', async () => {
    const t = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '300', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '400' });
    try {
      await expect(t.db.query('SELECT pg_sleep(1)')).rejects.toThrow('canceling statement due to statement timeout');
      expect((await t.db.query('SHOW statement_timeout'))[0].statement_timeout).toBe('300ms');
      const runner = t.db.createQueryRunner();
      try {
        await runner.startTransaction();
        await new Promise((resolve) => setTimeout(resolve, 800));
        // PostgreSQL ended the session and its transaction (FATAL 25P03); the next statement finds it gone.
        await expect(runner.query('SELECT 1')).rejects.toThrow();
      } finally {
        await runner.release();
      }
    } finally {
      await t.close();
    }
    const byDefault = await startTestApp();
    try {
      const [settings] = await byDefault.db.query('SELECT current_setting($1) AS statement, current_setting($2) AS idle, current_setting($3) AS jit', [
        'statement_timeout',
        'idle_in_transaction_session_timeout',
        'jit',
      ]);
      // JIT off in every session (data-source.options.ts says why).
      expect(settings).toEqual({ statement: '30s', idle: '1min', jit: 'off' });
    } finally {
      await byDefault.close();
    }
    const off = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '0' });
    try {
      expect((await off.db.query('SHOW statement_timeout'))[0].statement_timeout).toBe('0');
      expect((await off.db.query('SHOW idle_in_transaction_session_timeout'))[0].idle_in_transaction_session_timeout).toBe('0');
    } finally {
      await off.close();
    }
  });

  it('answers 503 with Retry-After, not 500, to a statement cut by statement_timeout and to a connection the server ended', async () => {
    const t = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '1000', CACHE_TTL_MS: '0' }, { role: 'http' });
    const locker = new Client({ connectionString: databaseUrl(t.database) });
    await locker.connect();
    try {
      const owner = await aRequester(t);
      const project = () => t.request({ method: 'GET', url: `/api/v1/projects/${owner.projectUuid}`, headers: { apikey: owner.liveKey } });
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE projects');
      const timedOut = await project();
      expect({ status: timedOut.status, body: timedOut.body, retryAfter: timedOut.headers['retry-after'] }).toEqual({
        status: 503,
        body: { errors: [{ field: 'root', detail: 'the database is busy; retry in a few seconds' }] },
        retryAfter: '2',
      });

      // A failover ends every session: PostgreSQL says so (57P01) to the statement it was running.
      const answer = project();
      const blocked = await eventually(async () => {
        const { rows } = await locker.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
        return rows[0]?.pid as number | undefined;
      });
      await locker.query('SELECT pg_terminate_backend($1)', [blocked]);
      const lost = await answer;
      expect({ status: lost.status, body: lost.body, retryAfter: lost.headers['retry-after'] }).toEqual({
        status: 503,
        body: { errors: [{ field: 'root', detail: 'the connection to the database was lost; retry in a few seconds' }] },
        retryAfter: '2',
      });
      await locker.query('ROLLBACK');
      // The ended session's client was closed, not handed to the next query to fail as well.
      expect((await project()).status).toBe(200);
    } finally {
      await locker.end();
      await t.close();
    }
  });

  it('answers 503 with Retry-After, not 500, while nothing listens at the database address (a server stopped or restarting)', async () => {
    const name = await createTestDatabase();
    const admin = new URL(databaseUrl(name));
    const proxy = await startFreezableProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    const proxied = new URL(admin);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const t = await startTestApp({ DATABASE_URL: proxied.toString(), CACHE_TTL_MS: '0' }, { database: name, role: 'http' });
    try {
      const owner = await aRequester(t);
      const project = () => t.request({ method: 'GET', url: `/api/v1/projects/${owner.projectUuid}`, headers: { apikey: owner.liveKey } });
      expect((await project()).status).toBe(200);
      // Its connections cut and its port closed: each new connection is refused (ECONNREFUSED).
      await proxy.close();
      for (let i = 0; i < 3; i++) {
        const res = await project();
        expect({ status: res.status, body: res.body, retryAfter: res.headers['retry-after'] }).toEqual({
          status: 503,
          body: { errors: [{ field: 'root', detail: expect.stringMatching(/^the (connection to the database was lost|database is busy); retry in a few seconds$/) }] },
          retryAfter: '2',
        });
      }
    } finally {
      await t.close();
      await dropTestDatabase(name);
    }
  }, 60_000);

  it('closes a connection whose peer stopped answering after DATABASE_QUERY_TIMEOUT_MS: 503, and the pool slot is free again', async () => {
    const name = await createTestDatabase();
    const admin = new URL(databaseUrl(name));
    const proxy = await startFreezableProxy({ host: admin.hostname, port: Number(admin.port || 5432) });
    const proxied = new URL(admin);
    proxied.host = `127.0.0.1:${proxy.port}`;
    const t = await startTestApp(
      { DATABASE_URL: proxied.toString(), DATABASE_POOL_SIZE: '2', DATABASE_STATEMENT_TIMEOUT_MS: '500', DATABASE_QUERY_TIMEOUT_MS: '1000', CACHE_TTL_MS: '0' },
      { database: name, role: 'http' },
    );
    try {
      const owner = await aRequester(t);
      const project = () =>
        within(t.request({ method: 'GET', url: `/api/v1/projects/${owner.projectUuid}`, headers: { apikey: owner.liveKey } }), 10_000, { status: 0, body: 'no answer' });
      // Every connection the pool holds now leads nowhere, and TCP cannot tell.
      expect(proxy.frozenOpen()).toBe(0);
      proxy.freeze();
      const from = Date.now();
      const first = await project();
      expect({ status: first.status, body: first.body }).toEqual({ status: 503, body: { errors: [{ field: 'root', detail: 'the database is busy; retry in a few seconds' }] } });
      expect(Date.now() - from).toBeLessThan(3_000);
      // Each frozen connection costs one request at most: it is closed, not handed to the next query.
      const statuses = [first.status];
      while (statuses.length < 4 && statuses[statuses.length - 1] !== 200) statuses.push((await project()).status);
      expect(statuses[statuses.length - 1]).toBe(200);
      expect(await eventually(() => proxy.frozenOpen() === 0, 5_000)).toBe(true);
      for (let i = 0; i < 3; i++) expect((await project()).status).toBe(200);
    } finally {
      await t.close();
      await proxy.close();
      await dropTestDatabase(name);
    }
  }, 60_000);

  it('runs the migrations without the statement and query timeouts, and gives the connection back with them', async () => {
    const name = await createEmptyDatabase();
    // One connection, the lock's, at 200 ms and 400 ms; the last migration, like an index built on a large table, takes longer.
    const dataSource = new DataSource({
      ...dataSourceOptions(databaseUrl(name), { poolSize: 1, statementTimeoutMs: 200, queryTimeoutMs: 400 }),
      migrations: [...MIGRATIONS, SlowIndex9999999999999],
    });
    try {
      await dataSource.initialize();
      await runMigrations(dataSource);
      const applied: Array<{ name: string }> = await dataSource.query('SELECT name FROM schema_migrations ORDER BY id');
      expect(applied.map((m) => m.name)).toEqual([...MIGRATIONS.map((m) => m.name), 'SlowIndex9999999999999']);
      // The lock's session went back to the pool at its own 200 ms, and its client at 400 ms.
      expect((await dataSource.query('SHOW statement_timeout'))[0].statement_timeout).toBe('200ms');
      await expect(dataSource.query('SELECT pg_sleep(0.5)')).rejects.toThrow('statement timeout');
      await dataSource.query('SET statement_timeout = 0');
      await expect(dataSource.query('SELECT pg_sleep(0.6)')).rejects.toThrow('Query read timeout');
      // That connection was closed; the next one is new, with the pool's settings.
      expect((await dataSource.query('SHOW statement_timeout'))[0].statement_timeout).toBe('200ms');
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropTestDatabase(name);
    }
  }, 60_000);
});
