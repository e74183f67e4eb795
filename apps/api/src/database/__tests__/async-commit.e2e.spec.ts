import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import { aRequester, aTask, signUp } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { completeInDb, submitInDb } from '../../../test/work-fixtures';
import { storeConsensus } from '../../submissions/stored-consensus';
import { DeliveryBatches } from '../../webhooks/delivery-batches';
import { pgPool } from '../prepared-statement';

/** Writes per measure. */
const WRITES = 100;

/**
 * The writes that a database crash may lose without harm commit without waiting for the disk
 * (database/async-commit.ts). Measured as WAL syncs: every synchronous commit makes one (or finds its
 * WAL already flushed by another), an asynchronous one leaves the flush to the WAL writer, a few times
 * a second. The counter is the cluster's, and other test files write at the same time, which can only
 * add syncs: so a write passes when one of up to five runs of it stays well under one sync per
 * statement, and the plain write beside them shows that the measure sees this connection's syncs.
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
    // One connection for every write below, so that its statistics can be flushed on demand.
    client = await pgPool(t.db).connect();
  });
  afterAll(async () => {
    client?.release();
    await t?.close();
  });

  /** The cluster's WAL syncs so far, with this connection's own counted (reported when it idles). */
  const walSyncs = async (): Promise<number> => {
    await client.query('SELECT pg_stat_force_next_flush()');
    await client.query('SELECT 1');
    return Number((await client.query('SELECT wal_sync FROM pg_stat_wal')).rows[0].wal_sync);
  };
  /**
   * The fewest WAL syncs that a run of WRITES sequential calls of `write` made, over up to `runs` runs,
   * stopping at the first run under `enough`. A run takes ~50 ms; to fail one, the other test files would
   * have to sync the WAL hundreds of times a second through all of it.
   */
  const fewestSyncs = async (write: (i: number) => Promise<unknown>, runs: number, enough = 0): Promise<number> => {
    let fewest = Infinity;
    for (let run = 0; run < runs && fewest >= enough; run++) {
      const before = await walSyncs();
      for (let i = 0; i < WRITES; i++) await write(i);
      fewest = Math.min(fewest, (await walSyncs()) - before);
    }
    return fewest;
  };
  /** Far fewer syncs than writes: most commits left their flush to the WAL writer. */
  const FEW = WRITES / 4;
  // Each write changes the row, so that each one commits something.
  const threshold = (i: number) => (i % 2 === 0 ? 0.5 : 0.6);

  it('a plain write waits for the disk at every commit (the measure sees it)', async () => {
    const syncs = await fewestSyncs(
      (i) => client.query('UPDATE tasks SET consensus = $2::json, consensus_iou_threshold = $3::real WHERE id = $1', [taskId, `[{"n":${i}}]`, threshold(i)]),
      1,
    );
    expect(syncs).toBeGreaterThanOrEqual(WRITES);
  });

  it('storing a consensus does not wait, and it is stored', async () => {
    const syncs = await fewestSyncs((i) => storeConsensus(client, threshold(i), [{ id: taskId, text: `[{"n":${i}}]`, frame: null }]), 5, FEW);
    expect(syncs).toBeLessThan(FEW);
    // storeConsensus logs its failures instead of throwing: no write at all would also make no sync.
    const [row] = (
      await client.query('SELECT consensus::text AS consensus, consensus_iou_threshold = $2::real AS same_threshold FROM tasks WHERE id = $1', [taskId, threshold(WRITES - 1)])
    ).rows;
    expect(row).toEqual({ consensus: `[{"n":${WRITES - 1}}]`, same_threshold: true });
  });

  it('recording a delivery attempt does not wait, and it is recorded', async () => {
    const batches = new DeliveryBatches(client);
    let attempts = 0;
    const syncs = await fewestSyncs(
      () =>
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
      5,
      FEW,
    );
    expect(syncs).toBeLessThan(FEW);
    const [row] = (await client.query('SELECT attempt_count, (SELECT count(*)::int FROM webhook_attempts WHERE event_id = $1) AS logged FROM webhook_events WHERE id = $1', [eventId])).rows;
    expect(row).toEqual({ attempt_count: attempts, logged: attempts });
  });

  it("leaves the connection's own setting as it was", async () => {
    expect((await client.query('SHOW synchronous_commit')).rows[0].synchronous_commit).toBe('on');
  });
});
