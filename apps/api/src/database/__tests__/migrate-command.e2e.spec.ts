import { once } from 'node:events';
import { Client } from 'pg';
import { spawnMain } from '../../../test/main-process';
import { createEmptyDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { MIGRATIONS } from '../data-source.options';

/** `node main.js --migrate` (docs/running.md, "Migrations"): a deploy's own migration step. */
describe('main.ts --migrate', () => {
  let name: string;
  beforeAll(async () => {
    name = await createEmptyDatabase();
  });
  afterAll(async () => {
    await dropTestDatabase(name);
  });

  /** Runs it to the end; its exit code and what it wrote. */
  const migrate = async () => {
    // No Redis at this address: migrating needs none, and no server starts.
    const main = spawnMain('all', { DATABASE_URL: databaseUrl(name), REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'info' }, ['--migrate']);
    const [code] = (await once(main.child, 'exit')) as [number | null];
    return { code, output: main.output.text };
  };
  const applied = async () => {
    const client = new Client({ connectionString: databaseUrl(name) });
    await client.connect();
    try {
      return (await client.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY id')).rows.map((r) => r.name);
    } finally {
      await client.end();
    }
  };

  it('applies every migration to a new database and exits 0; run again, applies nothing and exits 0', async () => {
    const first = await migrate();
    expect(first).toMatchObject({ code: 0 });
    const names = MIGRATIONS.map((m) => new m().name ?? m.name);
    expect(await applied()).toEqual(names);
    const second = await migrate();
    expect(second).toMatchObject({ code: 0 });
    expect(await applied()).toEqual(names);
  }, 120_000);
});
