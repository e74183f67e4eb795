import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { aRequester, aTask, signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { completeInDb, submitInDb } from '../../../test/work-fixtures';
import { storeConsensus } from '../../submissions/stored-consensus';
import { DeliveryBatches } from '../../webhooks/delivery-batches';
import { pgPool } from '../prepared-statement';

/** Writes per measure. */
const WRITES = 20;

/**
 * The writes that a database crash may lose without harm commit without waiting for the disk
 * (database/async-commit.ts): PostgreSQL reads `synchronous_commit` when a transaction commits. A
 * deferred constraint trigger runs at that moment, just before the commit record is written, so the
 * triggers below log the setting each write's commit will use, row by row, into `commit_settings`.
 *
 * This used to count the cluster's WAL syncs (`pg_stat_wal`), which every other test file running at
 * the same time adds to: on a slow or busy machine the asynchronous writes "made" 25 syncs per 100 and
 * failed. What the setting says at commit is what decides the wait; the bench measures the syncs.
 */
describe('commits that do not wait for the disk', () => {
  let t: TestApp;
  let client: PoolClient;
  let taskId: string;
  let eventId: string;

  beforeAll(async () => {
    t = await startTestApp();
    const r = await aRequester(t);
    taskId = await aTask(t, r);
    await submitInDb(t.db, { taskId, workerId: (await signUp(t)).userId });
    await completeInDb(t.db, taskId);
    // An event with no address: the relay and the workers leave it alone, so only this test writes it.
    eventId = randomUUID();
    await t.db.query(
      `INSERT INTO webhook_events (id, account_id, endpoint_id, task_id, type, payload, next_attempt_at)
       SELECT $1, p.account_id, NULL, $2, 'task_completed', '{}'::jsonb, now() FROM projects p WHERE p.id = $3`,
      [eventId, taskId, r.projectUuid],
    );
    // This file's own database: the probe changes no other test's tables.
    await t.db.query(`
      CREATE TABLE commit_settings (tbl text NOT NULL, row_id uuid NOT NULL, setting text NOT NULL);
      CREATE FUNCTION log_commit_setting() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        -- TG_ARGV[0]: the column that names this test's row (the event's id, for an attempt).
        INSERT INTO commit_settings VALUES (TG_TABLE_NAME, (to_jsonb(NEW) ->> TG_ARGV[0])::uuid, current_setting('synchronous_commit'));
        RETURN NULL;
      END $$;
      CREATE CONSTRAINT TRIGGER log_commit_setting AFTER UPDATE ON tasks
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION log_commit_setting('id');
      CREATE CONSTRAINT TRIGGER log_commit_setting AFTER UPDATE ON webhook_events
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION log_commit_setting('id');
      CREATE CONSTRAINT TRIGGER log_commit_setting AFTER INSERT ON webhook_attempts
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION log_commit_setting('event_id');`);
    client = await pgPool(t.db).connect();
  });
  afterAll(async () => {
    client?.release();
    await t?.close();
  });

  /** `synchronous_commit` as each commit of `write` (run WRITES times) found it, per table, for this test's rows. */
  const settingsAtCommit = async (write: (i: number) => Promise<unknown>): Promise<Record<string, string[]>> => {
    await client.query('TRUNCATE commit_settings');
    for (let i = 0; i < WRITES; i++) await write(i);
    const { rows } = await client.query<{ tbl: string; setting: string }>(
      'SELECT tbl, setting FROM commit_settings WHERE row_id = ANY($1::uuid[]) ORDER BY tbl',
      [[taskId, eventId]],
    );
    const byTable: Record<string, string[]> = {};
    for (const { tbl, setting } of rows) (byTable[tbl] ??= []).push(setting);
    return byTable;
  };
  const every = (setting: string) => Array<string>(WRITES).fill(setting);

  // Each write changes the row, so that each one commits something.
  const threshold = (i: number) => (i % 2 === 0 ? 0.5 : 0.6);

  it('a plain write waits for the disk at its commit (the probe sees the setting)', async () => {
    const settings = await settingsAtCommit((i) =>
      client.query('UPDATE tasks SET consensus = $2::json, consensus_iou_threshold = $3::real WHERE id = $1', [taskId, `[{"n":${i}}]`, threshold(i)]),
    );
    expect(settings).toEqual({ tasks: every('on') });
  });

  it('storing a consensus does not wait, and it is stored', async () => {
    const settings = await settingsAtCommit((i) => storeConsensus(client, threshold(i), [{ id: taskId, text: `[{"n":${i}}]`, frame: null }]));
    expect(settings).toEqual({ tasks: every('off') });
    const [row] = (
      await client.query('SELECT consensus::text AS consensus, consensus_iou_threshold = $2::real AS same_threshold FROM tasks WHERE id = $1', [taskId, threshold(WRITES - 1)])
    ).rows;
    expect(row).toEqual({ consensus: `[{"n":${WRITES - 1}}]`, same_threshold: true });
  });

  it('recording a delivery attempt does not wait, and it is recorded', async () => {
    const batches = new DeliveryBatches(client);
    let attempts = 0;
    const settings = await settingsAtCommit(() =>
      batches.recordAttempt({
        attemptId: randomUUID(),
        eventId,
        statusCode: 500,
        durationMs: 3,
        error: 'HTTP 500',
        excerpt: null,
        attemptCount: ++attempts,
        state: 'pending',
        delayMs: 60_000,
        body: '{}',
        redeliveries: 0,
      }),
    );
    expect(settings).toEqual({ webhook_attempts: every('off'), webhook_events: every('off') });
    const [row] = (await client.query('SELECT attempt_count, (SELECT count(*)::int FROM webhook_attempts WHERE event_id = $1) AS logged FROM webhook_events WHERE id = $1', [eventId])).rows;
    expect(row).toEqual({ attempt_count: attempts, logged: attempts });
  });

  it("leaves the connection's own setting as it was", async () => {
    expect((await client.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('on');
  });
});
