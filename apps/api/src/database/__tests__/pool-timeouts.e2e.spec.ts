import { createServer, type Server, type Socket } from 'node:net';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { startTestApp } from '../../../test/test-app';
import { createEmptyDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { within } from '../../../test/within';
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

/** The pool's timeouts (DATABASE_CONNECT_TIMEOUT_MS, DATABASE_STATEMENT_TIMEOUT_MS) and what is exempt. */
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

  it('cuts a statement at DATABASE_STATEMENT_TIMEOUT_MS, and leaves none when it is 0', async () => {
    const t = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '300' });
    try {
      await expect(t.db.query('SELECT pg_sleep(1)')).rejects.toThrow('canceling statement due to statement timeout');
      expect((await t.db.query('SHOW statement_timeout'))[0].statement_timeout).toBe('300ms');
    } finally {
      await t.close();
    }
    const off = await startTestApp();
    try {
      expect((await off.db.query('SHOW statement_timeout'))[0].statement_timeout).toBe('0');
    } finally {
      await off.close();
    }
  });

  it('runs the migrations without the statement timeout, and gives the connection back with it', async () => {
    const name = await createEmptyDatabase();
    // One connection, the lock's, at 200 ms; the last migration, like an index built on a large table, takes longer.
    const dataSource = new DataSource({
      ...dataSourceOptions(databaseUrl(name), { poolSize: 1, statementTimeoutMs: 200 }),
      migrations: [...MIGRATIONS, SlowIndex9999999999999],
    });
    try {
      await dataSource.initialize();
      await runMigrations(dataSource);
      const applied: Array<{ name: string }> = await dataSource.query('SELECT name FROM schema_migrations ORDER BY id');
      expect(applied.map((m) => m.name)).toEqual([...MIGRATIONS.map((m) => m.name), 'SlowIndex9999999999999']);
      // The lock's session went back to the pool at its own 200 ms.
      expect((await dataSource.query('SHOW statement_timeout'))[0].statement_timeout).toBe('200ms');
      await expect(dataSource.query('SELECT pg_sleep(0.5)')).rejects.toThrow('statement timeout');
    } finally {
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropTestDatabase(name);
    }
  }, 60_000);
});
