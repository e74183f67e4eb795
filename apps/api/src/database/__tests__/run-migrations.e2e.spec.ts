import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { createEmptyDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { within } from '../../../test/within';
import { MIGRATIONS, dataSourceOptions } from '../data-source.options';
import { runMigrations } from '../run-migrations';

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
});
