import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createTestDatabase, databaseUrl, dropTestDatabase } from '../../../test/test-database';

const API_ROOT = join(__dirname, '../../..');

/**
 * A pool client held outside TypeORM (the checkout's lease, the consensus refresh) whose connection dies:
 * pg emits 'error' on the client, and pg-pool listens only while the client is idle in the pool. With no
 * listener, Node ends the process: a PostgreSQL restart or failover, or pg_terminate_backend, took every
 * HTTP process with a checkout in flight down with it. The pool's client (QueryTimeoutClient) listens
 * for good; the held query fails as any failed query does.
 */
describe('a held pool client whose connection dies', () => {
  let database: string;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => dropTestDatabase(database));

  it('fails its query and leaves the process running', async () => {
    const child = spawn(process.execPath, ['-r', join(API_ROOT, 'test/swc-register.js'), join(API_ROOT, 'test/fixtures/held-client-dies.ts'), databaseUrl(database)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));

    expect({ code, output }).toEqual({ code: 0, output: expect.stringContaining('"next":"answered"') });
    const result = JSON.parse(output.trim().split('\n').pop() as string);
    expect(result.afterIdle).toMatch(/terminat|not queryable|connection/i);
    expect(result.duringBusy).toMatch(/terminat|connection/i);
  }, 30_000);
});
