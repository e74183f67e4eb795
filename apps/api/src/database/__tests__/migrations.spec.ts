import { DataSource } from 'typeorm';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';
import { dataSourceOptions } from '../data-source.options';

/**
 * The entities and the hand-written migrations must describe the same schema: this is what
 * `typeorm migration:generate` would print. A non-empty list means a migration is missing.
 */
describe('migrations', () => {
  let name: string;
  let dataSource: DataSource;

  beforeAll(async () => {
    name = await createTestDatabase();
    dataSource = new DataSource(dataSourceOptions(databaseUrl(name), 2));
    await dataSource.initialize();
  });

  afterAll(async () => {
    await dataSource.destroy();
    await dropTestDatabase(name);
  });

  it('leave nothing for migration:generate to add', async () => {
    const pending = await dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((q) => q.query)).toEqual([]);
  });

  it('are all applied to the template', async () => {
    expect(await dataSource.showMigrations()).toBe(false);
  });
});
