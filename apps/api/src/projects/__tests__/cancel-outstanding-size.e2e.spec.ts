import { aRequester } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { inTimedTransaction } from '../../database/timed-transaction';

/**
 * cancel_outstanding ends all of a project's outstanding tasks in one transaction, so its statements
 * take as long as the project is large; the pool's statement limit must not refuse a large project for good.
 */
describe('cancel_outstanding of a project larger than the pool statement limit allows', () => {
  let t: TestApp;
  beforeAll(async () => {
    // A limit that the statements of a 100,000-task cancel exceed (and a client limit above it, as the config requires).
    t = await startTestApp({ DATABASE_STATEMENT_TIMEOUT_MS: '100', DATABASE_QUERY_TIMEOUT_MS: '5000' });
  });
  afterAll(() => t.close());

  it('cancels every task, and the connection keeps the pool limit afterwards', async () => {
    const r = await aRequester(t);
    // The fixture's own insert may take longer than the 5 s client limit on a busy host.
    await inTimedTransaction(t.db, 120_000, async (tx) => {
      await tx.query(
        `INSERT INTO tasks (id, project_id, prompt, reward, required_submissions, allowed_completion_time_seconds)
         SELECT gen_random_uuid(), p.id, 'p', 5, 1, 600 FROM projects p, generate_series(1, 100000) WHERE p.id = $1`,
        [r.projectUuid],
      );
    });
    const res = await t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/cancel_outstanding`, headers: r.auth });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ cancelled: 100000, unspent_reward_cents: 500000 });
    // Every pooled connection still has the short limit: SET LOCAL ended with the transaction.
    const limits: Array<{ statement_timeout: string }> = await Promise.all(Array.from({ length: 10 }, () => t.db.query('SHOW statement_timeout').then((rows) => rows[0])));
    expect(new Set(limits.map((row) => row.statement_timeout))).toEqual(new Set(['100ms']));
  }, 60_000);
});
