import { Client } from 'pg';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { databaseUrl } from '../../../test/test-database';
import { errWithoutValues } from '../error-log-serializer';

/** A log line as pino writes it, with the error the way the serializer left it. */
interface LogLine {
  level: number;
  reqId?: string;
  msg: string;
  err?: Record<string, unknown>;
}

const EMAIL = 'alice.private@example.com';
const NAME = 'Alice Private';
const PASSWORD = 'a password of alice';

/**
 * A failed statement is logged as an error with its request id and its SQL, but never with the values
 * it ran with: TypeORM's QueryFailedError carries them (`parameters`, and pg's error as `driverError`).
 */
describe('database errors in the log', () => {
  let t: TestApp & { database: string };
  const lines: string[] = [];
  let locker: Client;
  beforeAll(async () => {
    t = await startTestApp({ LOG_LEVEL: 'warn', DATABASE_STATEMENT_TIMEOUT_MS: '300' }, { logStream: { write: (line) => lines.push(line) } });
    locker = new Client({ connectionString: databaseUrl(t.database) });
    await locker.connect();
  });
  afterAll(async () => {
    await locker.end();
    await t.close();
  });
  beforeEach(() => {
    lines.length = 0;
  });

  /** Runs `request` while another session holds `lock` on users, so its statement on users times out. */
  async function underLock<T>(lock: string, request: () => Promise<T>): Promise<T> {
    await locker.query('BEGIN');
    await locker.query(`LOCK TABLE users IN ${lock} MODE`);
    try {
      return await request();
    } finally {
      await locker.query('ROLLBACK');
    }
  }

  const loggedFor = (requestId: string): LogLine | undefined =>
    lines.map((line) => JSON.parse(line) as LogLine).find((line) => line.reqId === requestId && line.err !== undefined);

  it('a statement timeout at sign-up: logged with its request id and SQL, without the email, name or password hash', async () => {
    const res = await underLock('SHARE', () =>
      // SHARE lets the sign-up read users but not insert: the INSERT, with every value of the user, times out.
      t.request({ method: 'POST', url: '/api/session/signup', headers: { 'x-request-id': 'signup-under-lock' }, body: { email: EMAIL, password: PASSWORD, name: NAME } }),
    );
    expect(res.status).toBeGreaterThanOrEqual(500);
    const logged = loggedFor('signup-under-lock');
    expect(logged?.err).toMatchObject({ type: 'QueryFailedError', message: 'canceling statement due to statement timeout', code: '57014' });
    expect(logged?.err?.query).toMatch(/^INSERT INTO "users"/);
    expect(logged?.err).not.toHaveProperty('parameters');
    expect(logged?.err).not.toHaveProperty('driverError');
    const all = lines.join('');
    expect(all).not.toContain(EMAIL);
    expect(all).not.toContain(NAME);
    expect(all).not.toContain('scrypt$');
  });

  it('a statement timeout at log-in: logged with its request id, without the email', async () => {
    const email = 'bob.private@example.com';
    expect((await t.request({ method: 'POST', url: '/api/session/signup', body: { email, password: PASSWORD, name: 'Bob' } })).status).toBe(201);
    const res = await underLock('ACCESS EXCLUSIVE', () =>
      t.request({ method: 'POST', url: '/api/session/login', headers: { 'x-request-id': 'login-under-lock' }, body: { email, password: PASSWORD } }),
    );
    expect(res.status).toBeGreaterThanOrEqual(500);
    const logged = loggedFor('login-under-lock');
    expect(logged?.err).toMatchObject({ type: 'QueryFailedError', message: 'canceling statement due to statement timeout' });
    expect(logged?.err?.query).toMatch(/FROM "users"/);
    expect(lines.join('')).not.toContain(email);
  });

  it("drops pg's detail, which quotes the refused key, and keeps what names the failure", async () => {
    // One session: the table is its own.
    const runner = t.db.createQueryRunner();
    let error: unknown;
    try {
      await runner.query(`CREATE TEMPORARY TABLE people (email text CONSTRAINT uq_people_email UNIQUE)`);
      await runner.query('INSERT INTO people VALUES ($1)', [EMAIL]);
      error = await runner.query('INSERT INTO people VALUES ($1)', [EMAIL]).catch((thrown: unknown) => thrown);
    } finally {
      await runner.query('DROP TABLE IF EXISTS people');
      await runner.release();
    }
    // The error itself keeps it all (callers read its code and constraint); only the log's copy loses it.
    expect(error).toMatchObject({ detail: `Key (email)=(${EMAIL}) already exists.`, parameters: [EMAIL] });
    const serialized = JSON.stringify(errWithoutValues(error as Error));
    expect(serialized).not.toContain(EMAIL);
    expect(JSON.parse(serialized)).toMatchObject({ type: 'QueryFailedError', code: '23505', constraint: 'uq_people_email', query: 'INSERT INTO people VALUES ($1)' });
    expect(error).toMatchObject({ parameters: [EMAIL] });
  });
});
