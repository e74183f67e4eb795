import { Client } from 'pg';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { eventually } from '../../../test/eventually';
import { createEmptyDatabase, createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { within } from '../../common/within';
import { MIGRATIONS, dataSourceOptions } from '../data-source.options';
import { runMigrations } from '../run-migrations';

/** A migration that needs ACCESS EXCLUSIVE on tasks, as adding a column does. */
class AlterTasks9999999999998 implements MigrationInterface {
  name = 'AlterTasks9999999999998';
  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE tasks ADD COLUMN probe integer');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE tasks DROP COLUMN probe');
  }
}

/** An index built CONCURRENTLY, outside a transaction: it waits for every older transaction to end. */
class ConcurrentIndex9999999999999 implements MigrationInterface {
  name = 'ConcurrentIndex9999999999999';
  transaction = false as const;
  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS ix_tasks_probe_reward');
    await q.query('CREATE INDEX CONCURRENTLY ix_tasks_probe_reward ON tasks (reward)');
  }
  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX CONCURRENTLY IF EXISTS ix_tasks_probe_reward');
  }
}

/** A logger that keeps what it is told. */
const keptLog = () => {
  const lines: string[] = [];
  return { lines, logger: { log: (message: string) => lines.push(message), warn: (message: string) => lines.push(`warn: ${message}`) } };
};

/**
 * A session that reads tasks and keeps its transaction open, with ACCESS SHARE on tasks and its snapshot,
 * as pg_dump does.
 */
async function longReader(name: string): Promise<Client> {
  const reader = new Client({ connectionString: databaseUrl(name), application_name: 'long-reader' });
  await reader.connect();
  await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
  await reader.query('SELECT count(*) FROM tasks');
  return reader;
}

describe('runMigrations', () => {
  it('lets three processes boot together on a new database: one migrates, the others wait, none hangs', async () => {
    const name = await createEmptyDatabase();
    const processes = [0, 1, 2].map(() => new DataSource(dataSourceOptions(databaseUrl(name), 2)));
    try {
      await Promise.all(processes.map((p) => p.initialize()));
      // A waiter blocked in pg_advisory_lock() would hold a snapshot that CREATE INDEX CONCURRENTLY
      // waits for, while it waits for the migrating process: that hang ends here as a timeout.
      const booted = Promise.all(processes.map((p) => runMigrations(p))).then(() => 'migrated');
      expect(await within(booted, 30_000, 'hung')).toBe('migrated');
      const applied: Array<{ name: string }> = await processes[0].query('SELECT name FROM schema_migrations ORDER BY id');
      expect(applied.map((m) => m.name)).toEqual(MIGRATIONS.map((m) => m.name));
      expect(await processes[1].showMigrations()).toBe(false);
    } finally {
      await Promise.all(processes.map((p) => (p.isInitialized ? p.destroy() : undefined)));
      await dropTestDatabase(name);
    }
  }, 60_000);

  it('migrates a new database through a pool of one connection', async () => {
    const name = await createEmptyDatabase();
    const single = new DataSource(dataSourceOptions(databaseUrl(name), 1));
    try {
      await single.initialize();
      // The lock's session holds the only connection: migrating on another would wait for it for good.
      const migrated = runMigrations(single).then(() => 'migrated');
      expect(await within(migrated, 30_000, 'hung')).toBe('migrated');
      expect(await single.showMigrations()).toBe(false);
      // The lock went with the migrations: another session takes it at once.
      const other = new Client({ connectionString: databaseUrl(name) });
      await other.connect();
      try {
        expect((await other.query('SELECT pg_try_advisory_lock(727001) AS locked')).rows[0].locked).toBe(true);
      } finally {
        await other.end();
      }
    } finally {
      // Unhung by dropping the database (WITH FORCE) when the migration is stuck.
      await dropTestDatabase(name);
      if (single.isInitialized) await single.destroy().catch(() => undefined);
    }
  }, 60_000);

  describe('a migration that waits for a lock', () => {
    let name: string;
    let dataSource: DataSource;
    let reader: Client;
    beforeEach(async () => {
      name = await createTestDatabase();
      dataSource = new DataSource({ ...dataSourceOptions(databaseUrl(name), 2), migrations: [...MIGRATIONS, AlterTasks9999999999998] });
      await dataSource.initialize();
      reader = await longReader(name);
    });
    afterEach(async () => {
      await reader.end().catch(() => undefined);
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropTestDatabase(name);
    });

    const probeColumn = async () =>
      (await dataSource.query(`SELECT 1 FROM information_schema.columns WHERE table_name = 'tasks' AND column_name = 'probe'`)).length === 1;

    it('holds up other queries on its table no longer than the lock timeout, and migrates once the reader commits', async () => {
      const { lines, logger } = keptLog();
      const migrated = runMigrations(dataSource, { lockTimeoutMs: 300, attempts: 30, retryDelayMs: 100, logger }).then(() => 'migrated');
      // The app's queries on tasks meanwhile: behind a queued ALTER TABLE, each waits as long as it does.
      const other = new Client({ connectionString: databaseUrl(name) });
      await other.connect();
      let slowest = 0;
      try {
        const until = Date.now() + 2_500;
        while (Date.now() < until && slowest < 3_000) {
          const from = Date.now();
          await within(other.query('SELECT id FROM tasks LIMIT 1'), 3_000, 'blocked');
          slowest = Math.max(slowest, Date.now() - from);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await other.end();
      }
      expect(slowest).toBeLessThan(1_000);
      expect(await probeColumn()).toBe(false);
      expect(lines.find((line) => line.startsWith('warn: migration AlterTasks9999999999998 waited 300 ms for a lock'))).toMatch(
        /the oldest open transaction is pid \d+'s \(long-reader\), idle in transaction, open \d+ s; trying again in \d+ ms \(try 1 of 30\)/,
      );

      await reader.query('COMMIT');
      expect(await within(migrated, 15_000, 'still waiting')).toBe('migrated');
      expect(await probeColumn()).toBe(true);
      // The pool's sessions have no lock_timeout: it was the migration's transaction's alone.
      expect((await dataSource.query('SHOW lock_timeout'))[0].lock_timeout).toBe('0');
    }, 60_000);

    it('fails clearly after the given number of tries, changing nothing and letting go of the migration lock', async () => {
      const { logger } = keptLog();
      const tried = runMigrations(dataSource, { lockTimeoutMs: 100, attempts: 3, retryDelayMs: 50, logger }).then(
        () => 'migrated',
        (error: Error) => error.message,
      );
      const outcome = await within(tried, 20_000, 'still waiting');
      expect(outcome).toMatch(/^migration AlterTasks9999999999998 gave up after 3 tries: each waited 100 ms for a lock \(DATABASE_MIGRATION_LOCK_TIMEOUT_MS\)/);
      expect(outcome).toContain('(long-reader)');
      expect(await probeColumn()).toBe(false);
      expect((await dataSource.query('SELECT pg_try_advisory_lock(727001) AS locked'))[0].locked).toBe(true);
    }, 60_000);
  });

  it('builds an index CONCURRENTLY with no lock timeout: it waits for an older transaction instead of failing', async () => {
    const name = await createTestDatabase();
    const dataSource = new DataSource({ ...dataSourceOptions(databaseUrl(name), 2), migrations: [...MIGRATIONS, ConcurrentIndex9999999999999] });
    const reader = await longReader(name);
    try {
      await dataSource.initialize();
      const migrated = runMigrations(dataSource, { lockTimeoutMs: 100, attempts: 1, logger: keptLog().logger }).then(
        () => 'migrated',
        (error: Error) => error.message,
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await reader.query('COMMIT');
      expect(await within(migrated, 15_000, 'still waiting')).toBe('migrated');
      const [index] = await dataSource.query(`SELECT indisvalid FROM pg_index WHERE indexrelid = 'ix_tasks_probe_reward'::regclass`);
      expect(index).toEqual({ indisvalid: true });
    } finally {
      await reader.end().catch(() => undefined);
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropTestDatabase(name);
    }
  }, 60_000);

  it('says in the log that it waits for another process that holds the migration lock, and who that is', async () => {
    const name = await createTestDatabase();
    const dataSource = new DataSource(dataSourceOptions(databaseUrl(name), 2));
    const holder = new Client({ connectionString: databaseUrl(name) });
    try {
      await Promise.all([dataSource.initialize(), holder.connect()]);
      const holderPid: number = (await holder.query('SELECT pg_backend_pid() AS pid')).rows[0].pid;
      await holder.query('SELECT pg_advisory_lock(727001)');
      const { lines, logger } = keptLog();
      const migrated = runMigrations(dataSource, { logger }).then(() => 'migrated');
      expect(await eventually(() => lines.length > 0, 5_000)).toBe(true);
      expect(lines[0]).toBe(`another process is migrating (PostgreSQL pid ${holderPid} holds the migration lock); waiting for it`);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await holder.query('SELECT pg_advisory_unlock(727001)');
      expect(await within(migrated, 10_000, 'still waiting')).toBe('migrated');
      expect(lines[lines.length - 1]).toMatch(/^took the migration lock after [12] s$/);
    } finally {
      await holder.end().catch(() => undefined);
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropTestDatabase(name);
    }
  }, 30_000);
});
