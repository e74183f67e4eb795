import { UNSTORABLE_TEXT_DETAIL } from '@crowdbox/contracts';
import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/eventually';
import { aRequester, aTask, signUp, type Requester, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { leaseHintAndTruth } from '../../../test/work-fixtures';
import { pgPool } from '../../database/prepared-statement';
import { ProducerQueues } from '../../queues/producer-queues';
import { CheckoutExpiryScheduler, expiryJobId, MAX_PENDING } from '../checkout-expiry.scheduler';
import { expireLeases } from '../lease-expiry';

const BOX = { label: 'car', center_x: 100, center_y: 80, width: 40, height: 30 };
const IMAGE = { image_width: 640, image_height: 480 };
/**
 * How long a lease lives before its expiry job is added, here (60 s by default): long enough for a test
 * to end a lease within it on a loaded machine.
 */
const GRACE_MS = 1000;

describe('worker API /api/work', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ CHECKOUT_EXPIRY_JOB_GRACE_MS: String(GRACE_MS) });
  });
  afterAll(async () => {
    await t.close();
  });

  const checkOut = (w: SignedIn, projectUuid: string) =>
    t.request({ method: 'POST', url: '/api/work/checkouts', headers: w.auth, body: { project_uuid: projectUuid } });
  const submit = (w: SignedIn, checkoutId: string, body: Record<string, unknown> = { annotations: [BOX], ...IMAGE }) =>
    t.request({ method: 'POST', url: `/api/work/checkouts/${checkoutId}/submit`, headers: w.auth, body });
  const release = (w: SignedIn, checkoutId: string) =>
    t.request({ method: 'POST', url: `/api/work/checkouts/${checkoutId}/release`, headers: w.auth });
  const task = async (r: Requester, taskId: string) =>
    (await t.request({ method: 'GET', url: `/api/v1/tasks/${taskId}`, headers: { apikey: r.liveKey } })).body.data;
  const workers = (n: number) => Promise.all(Array.from({ length: n }, () => signUp(t)));
  /** Moves a lease's clock back as if its time had run out `seconds` ago; the expiry job has not run. */
  const runOut = (checkoutId: string, seconds = 1) =>
    t.db.query(
      `UPDATE checkouts SET expires_at = now() - make_interval(secs => $2::int),
                            checked_out_at = now() - make_interval(secs => $2::int) - (expires_at - checked_out_at)
        WHERE id = $1`,
      [checkoutId, seconds],
    );
  const noTask = { errors: [{ field: 'root', detail: 'no task available' }] };

  describe('checking out', () => {
    it('hands out a lease with everything the worker app needs', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { external_image_url: 'https://images.example.com/1.jpg' });
      const [w] = await workers(1);
      const res = await checkOut(w, r.projectUuid);
      expect(res.status).toBe(201);
      const c = res.body.data;
      expect(Object.keys(c)).toEqual([
        'checkout_id',
        'task_uuid',
        'project_uuid',
        'prompt',
        'external_image_url',
        'labels',
        'max_boxes',
        'reward',
        'checked_out_at',
        'expires_at',
      ]);
      expect(c).toMatchObject({
        task_uuid: taskId,
        project_uuid: r.projectUuid,
        prompt: '<p>Draw a box around every car in <b>the picture</b>.</p>',
        external_image_url: 'https://images.example.com/1.jpg',
        max_boxes: 500,
        reward: 25,
      });
      expect(c.labels.map((l: { name: string }) => l.name)).toEqual(['car', 'person']);
      expect(Date.parse(c.expires_at) - Date.parse(c.checked_out_at)).toBe(600_000);
      // The task shows the lease.
      expect((await task(r, taskId)).checked_out_at).toBe(c.checked_out_at);
      // Listed among the worker's active checkouts, for resuming after a reload.
      const active = await t.request({ method: 'GET', url: '/api/work/checkouts', headers: w.auth });
      expect(active.body.data).toEqual([c]);
    });

    it('gives each task to distinct workers, never twice to one, and nothing to a 4th while 3 slots are leased', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 3 });
      const [w1, w2, w3, w4] = await workers(4);
      const leases = [];
      for (const w of [w1, w2, w3]) {
        const res = await checkOut(w, r.projectUuid);
        expect(res.status).toBe(201);
        expect(res.body.data.task_uuid).toBe(taskId);
        leases.push(res.body.data);
      }
      expect(new Set(leases.map((l) => l.checkout_id)).size).toBe(3);
      const fourth = await checkOut(w4, r.projectUuid);
      expect(fourth.status).toBe(404);
      expect(fourth.body).toEqual(noTask);

      // A worker asking again while holding a lease in the project gets that same lease back.
      const again = await checkOut(w1, r.projectUuid);
      expect(again.status).toBe(200);
      expect(again.body.data.checkout_id).toBe(leases[0].checkout_id);

      // After submitting, w1 never gets this task again, even with a slot free.
      expect((await submit(w1, leases[0].checkout_id)).status).toBe(201);
      expect((await release(w2, leases[1].checkout_id)).status).toBe(200);
      expect(await checkOut(w1, r.projectUuid)).toMatchObject({ status: 404, body: noTask });
      // Nor does w2, who released it.
      expect(await checkOut(w2, r.projectUuid)).toMatchObject({ status: 404, body: noTask });
      // w4 gets the freed slot.
      expect((await checkOut(w4, r.projectUuid)).body.data.task_uuid).toBe(taskId);
    });

    it('gives one worker one lease in a project when two checkouts run at the same instant (two tabs)', async () => {
      const r = await aRequester(t);
      await aTask(t, r);
      await aTask(t, r);
      const [w] = await workers(1);
      // Holding the worker's user row makes the first lease insert wait at its foreign-key check (the second
      // then waits for its advisory lock; without the lock, at the same check), each after its statement's
      // snapshot was taken and its `held` probe found nothing: the two checkouts overlap for sure.
      const blocker = await pgPool(t.db).connect();
      let both: Array<Awaited<ReturnType<typeof checkOut>>>;
      try {
        await blocker.query('BEGIN');
        await blocker.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [w.userId]);
        const racing = Promise.all([checkOut(w, r.projectUuid), checkOut(w, r.projectUuid)]);
        await eventually(
          async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%checkouts%'`)).length === 2,
        );
        await blocker.query('COMMIT');
        both = await racing;
      } finally {
        blocker.release();
      }
      expect(both.map((res) => res.status).sort()).toEqual([200, 201]);
      expect(both[0].body.data.checkout_id).toBe(both[1].body.data.checkout_id);
      const live = await t.db.query(`SELECT count(*)::int AS n FROM checkouts WHERE worker_id = $1 AND state = 'active'`, [w.userId]);
      expect(live[0].n).toBe(1);
    });

    it('hands out tasks oldest first and moves on to the next task when one is full', async () => {
      const r = await aRequester(t);
      const first = await aTask(t, r, { required_submissions: 1 });
      const second = await aTask(t, r, { required_submissions: 1 });
      const [w1, w2, w3] = await workers(3);
      expect((await checkOut(w1, r.projectUuid)).body.data.task_uuid).toBe(first);
      expect((await checkOut(w2, r.projectUuid)).body.data.task_uuid).toBe(second);
      expect(await checkOut(w3, r.projectUuid)).toMatchObject({ status: 404, body: noTask });
    });

    it('hands out tasks in the order they were added, whatever their random ids', async () => {
      const r = await aRequester(t);
      const added: string[] = [];
      for (let i = 0; i < 6; i++) added.push(await aTask(t, r, { required_submissions: 1 }));
      const leased: string[] = [];
      for (const w of await workers(6)) leased.push((await checkOut(w, r.projectUuid)).body.data.task_uuid);
      expect(leased).toEqual(added);
    });

    it('leases a free task whose row another transaction holds for a moment, instead of answering that none is left', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 2 });
      const [w1, w2, w3] = await workers(3);
      expect((await checkOut(w1, r.projectUuid)).status).toBe(201);
      // The KEY SHARE a foreign-key check takes (a lease or a submission being inserted for the task) is
      // enough for SKIP LOCKED to step over the task's row.
      const holder = await pgPool(t.db).connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM tasks WHERE id = $1 FOR KEY SHARE', [taskId]);
        const pending = checkOut(w2, r.projectUuid);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await holder.query('COMMIT');
        const res = await pending;
        expect(res.status).toBe(201);
        expect(res.body.data.task_uuid).toBe(taskId);

        // Full now: with its row held again, a third worker is told at once that nothing is left.
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM tasks WHERE id = $1 FOR NO KEY UPDATE', [taskId]);
        const started = Date.now();
        expect(await checkOut(w3, r.projectUuid)).toMatchObject({ status: 404, body: noTask });
        expect(Date.now() - started).toBeLessThan(1_000);
      } finally {
        await holder.query('ROLLBACK');
        holder.release();
      }
      const [{ n }] = await t.db.query(`SELECT count(*)::int AS n FROM checkouts WHERE task_id = $1 AND state = 'active'`, [taskId]);
      expect(n).toBe(2);
    });

    it('answers 503 (retry), not "no task available", while a free task’s row stays locked past the lock wait', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r);
      const [w] = await workers(1);
      const holder = await pgPool(t.db).connect();
      try {
        await holder.query('BEGIN');
        await holder.query('SELECT 1 FROM tasks WHERE id = $1 FOR NO KEY UPDATE', [taskId]);
        const res = await checkOut(w, r.projectUuid);
        expect(res).toMatchObject({ status: 503, body: { errors: [{ field: 'root', detail: 'the database is busy; retry in a few seconds' }] } });
        expect(res.headers['retry-after']).toBe('2');
      } finally {
        await holder.query('ROLLBACK');
        holder.release();
      }
      expect((await checkOut(w, r.projectUuid)).body.data.task_uuid).toBe(taskId);
    });

    it('answers a project with no open task at once', async () => {
      const r = await aRequester(t);
      const [w] = await workers(1);
      const started = Date.now();
      expect(await checkOut(w, r.projectUuid)).toMatchObject({ status: 404, body: noTask });
      expect(Date.now() - started).toBeLessThan(1_000);
    });

    it('refuses a missing project, another worker’s own project and bad bodies, writing nothing', async () => {
      const r = await aRequester(t);
      await aTask(t, r);
      const [w] = await workers(1);
      for (const uuid of [randomUUID(), 'not-a-uuid']) {
        expect(await checkOut(w, uuid)).toMatchObject({ status: 404, body: { errors: [{ field: 'root', detail: 'project not found' }] } });
      }
      const own = await checkOut(r, r.projectUuid);
      expect(own.status).toBe(403);
      expect(own.body.errors[0].field).toBe('project_uuid');
      const bad = await t.request({ method: 'POST', url: '/api/work/checkouts', headers: w.auth, body: { project_uuid: 7 } });
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].field).toBe('project_uuid');
      const anonymous = await t.request({ method: 'POST', url: '/api/work/checkouts', body: { project_uuid: r.projectUuid } });
      expect(anonymous.status).toBe(401);
      const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM checkouts c JOIN tasks t ON t.id = c.task_id WHERE t.project_id = $1', [
        r.projectUuid,
      ]);
      expect(n).toBe(0);
    });
  });

  describe('time allowed', () => {
    it('frees the slot of a lease past expires_at at once, with the expiry job not run, and refuses its submit', async () => {
      const r = await aRequester(t, { allowed_completion_time_seconds: 30 });
      const taskId = await aTask(t, r, { required_submissions: 1 });
      const [w1, w2] = await workers(2);
      const lease = (await checkOut(w1, r.projectUuid)).body.data;
      expect(Date.parse(lease.expires_at) - Date.parse(lease.checked_out_at)).toBe(30_000);
      expect(await checkOut(w2, r.projectUuid)).toMatchObject({ status: 404, body: noTask });

      await runOut(lease.checkout_id);
      const [{ state }] = await t.db.query('SELECT state FROM checkouts WHERE id = $1', [lease.checkout_id]);
      expect(state).toBe('active'); // the job has not run; the slot is free all the same
      expect((await task(r, taskId)).checked_out_at).toBeNull();
      const project = await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}`, headers: { apikey: r.liveKey } });
      expect(project.body.data.available_task_count).toBe(1);

      const late = await submit(w1, lease.checkout_id);
      expect(late.status).toBe(422);
      expect(late.body).toEqual({ errors: [{ field: 'root', detail: 'checkout has expired' }] });
      const second = await checkOut(w2, r.projectUuid);
      expect(second.status).toBe(201);
      expect(second.body.data.task_uuid).toBe(taskId);
      expect((await submit(w2, second.body.data.checkout_id)).status).toBe(201);
      expect((await task(r, taskId)).submission_count).toBe(1);
    });

    it('lets a worker whose lease ran out check out the project’s next task at once, with the expiry job not run', async () => {
      const r = await aRequester(t, { allowed_completion_time_seconds: 30 });
      await aTask(t, r, { required_submissions: 1 });
      const next = await aTask(t, r, { required_submissions: 1 });
      const [w] = await workers(1);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      await runOut(lease.checkout_id);
      const [{ state }] = await t.db.query('SELECT state FROM checkouts WHERE id = $1', [lease.checkout_id]);
      expect(state).toBe('active'); // the job has not run: only its time says the lease is over
      const again = await checkOut(w, r.projectUuid);
      expect(again.status).toBe(201);
      expect(again.body.data.task_uuid).toBe(next);
    });

    it('the checkout-expiry job marks a run-out lease expired, skips one that was submitted, and neither job stays in Redis', async () => {
      const r = await aRequester(t);
      await aTask(t, r, { required_submissions: 2 });
      const [w1, w2] = await workers(2);
      const runsOut = (await checkOut(w1, r.projectUuid)).body.data;
      const submitted = (await checkOut(w2, r.projectUuid)).body.data;
      expect((await submit(w2, submitted.checkout_id)).status).toBe(201);
      await runOut(runsOut.checkout_id);

      const scheduler = t.app.get(CheckoutExpiryScheduler);
      // Re-adding under the same jobId is a no-op in BullMQ, so schedule fresh ids' jobs to run now.
      const queue = t.app.get(ProducerQueues).checkoutExpiry;
      await queue.remove(expiryJobId(runsOut.checkout_id));
      await queue.remove(expiryJobId(submitted.checkout_id));
      scheduler.schedule(runsOut.checkout_id, new Date(Date.now() - 1000));
      scheduler.schedule(submitted.checkout_id, new Date(Date.now() - 1000));
      const states = async () =>
        Object.fromEntries(
          (
            await t.db.query('SELECT id, state FROM checkouts WHERE id = ANY($1)', [[runsOut.checkout_id, submitted.checkout_id]])
          ).map((row: { id: string; state: string }) => [row.id, row.state]),
        );
      await eventually(async () => (await states())[runsOut.checkout_id] === 'expired', 5_000, 100);
      expect(await states()).toEqual({ [runsOut.checkout_id]: 'expired', [submitted.checkout_id]: 'submitted' });
      // A finished job is removed: kept, each real expiry would leave ~1 KB in Redis for good.
      await eventually(async () => (await queue.getJob(expiryJobId(submitted.checkout_id))) === undefined, 5_000, 100);
      expect(await queue.getJob(expiryJobId(runsOut.checkout_id))).toBeUndefined();
      expect(await queue.getJobCounts('completed', 'failed')).toEqual({ completed: 0, failed: 0 });
    });

    it('the periodic sweep marks run-out leases expired whose job never ran, and leaves live and submitted ones alone', async () => {
      const r = await aRequester(t);
      await aTask(t, r, { required_submissions: 3 });
      const [w1, w2, w3] = await workers(3);
      const lost = (await checkOut(w1, r.projectUuid)).body.data;
      const live = (await checkOut(w2, r.projectUuid)).body.data;
      const submitted = (await checkOut(w3, r.projectUuid)).body.data;
      expect((await submit(w3, submitted.checkout_id)).status).toBe(201);
      await runOut(lost.checkout_id, 120);
      // The lease's job is gone (a Redis outage, a flushed queue): only the sweep is left to end it.
      await t.app.get(ProducerQueues).checkoutExpiry.remove(expiryJobId(lost.checkout_id));

      const swept = await expireLeases(t.db);
      expect(swept).toContain(lost.checkout_id);
      expect(swept).not.toContain(live.checkout_id);
      const rows: Array<{ id: string; state: string; ended_at: Date | null; expires_at: Date }> = await t.db.query(
        'SELECT id, state, ended_at, expires_at FROM checkouts WHERE id = ANY($1)',
        [[lost.checkout_id, live.checkout_id, submitted.checkout_id]],
      );
      const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
      expect(byId[lost.checkout_id].state).toBe('expired');
      // It ended when its time ran out, not when the sweep came by.
      expect(byId[lost.checkout_id].ended_at).toEqual(byId[lost.checkout_id].expires_at);
      expect(byId[live.checkout_id]).toMatchObject({ state: 'active', ended_at: null });
      expect(byId[submitted.checkout_id].state).toBe('submitted');
      // Nothing left for a second pass to do for this lease.
      expect(await expireLeases(t.db)).not.toContain(lost.checkout_id);
    });

    it('adds a lease’s expiry job, keyed by the checkout id, once the lease has outlived its grace', async () => {
      const r = await aRequester(t);
      await aTask(t, r);
      const [w] = await workers(1);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      const queue = t.app.get(ProducerQueues).checkoutExpiry;
      expect(await queue.getJob(expiryJobId(lease.checkout_id))).toBeUndefined();
      const job = await eventually(() => queue.getJob(expiryJobId(lease.checkout_id)), 5_000, 20);
      expect(job?.data).toEqual({ checkoutId: lease.checkout_id });
      expect(await job?.isDelayed()).toBe(true);
      // Due a second after the lease runs out, wherever in its life it was added.
      const due = (job?.timestamp ?? 0) + (job?.opts.delay ?? 0);
      expect(Math.abs(due - (new Date(lease.expires_at).getTime() + 1000))).toBeLessThan(1000);
    });

    it('leaves Redis alone for a lease that ends within its grace: no job added, none removed', async () => {
      const r = await aRequester(t);
      await aTask(t, r, { required_submissions: 3 });
      const [w1, w2, w3] = await workers(3);
      const queue = t.app.get(ProducerQueues).checkoutExpiry;
      const add = jest.spyOn(queue, 'add');
      const remove = jest.spyOn(queue, 'remove');
      try {
        const submitted = (await checkOut(w1, r.projectUuid)).body.data;
        const released = (await checkOut(w2, r.projectUuid)).body.data;
        // Ended by another process (here: by hand) while its grace ran: the tick finds it ended.
        const elsewhere = (await checkOut(w3, r.projectUuid)).body.data;
        expect((await submit(w1, submitted.checkout_id)).status).toBe(201);
        expect((await release(w2, released.checkout_id)).status).toBe(200);
        await t.db.query(`UPDATE checkouts SET state = 'released', ended_at = now() WHERE id = $1`, [elsewhere.checkout_id]);
        await new Promise((resolve) => setTimeout(resolve, 2 * GRACE_MS));

        const ids = [submitted, released, elsewhere].map((lease) => expiryJobId(lease.checkout_id));
        const touched = [...add.mock.calls.map((call) => call[2]?.jobId), ...remove.mock.calls.map((call) => call[0])];
        expect(touched.filter((id) => ids.includes(id as string))).toEqual([]);
        for (const id of ids) expect(await queue.getJob(id)).toBeUndefined();
      } finally {
        add.mockRestore();
        remove.mockRestore();
      }
    });

    it('adds the jobs of leases still in their grace when asked to (on shutdown)', async () => {
      const r = await aRequester(t);
      await aTask(t, r);
      const [w] = await workers(1);
      const queue = t.app.get(ProducerQueues).checkoutExpiry;
      const add = jest.spyOn(queue, 'add');
      try {
        const lease = (await checkOut(w, r.projectUuid)).body.data;
        const scheduler = t.app.get(CheckoutExpiryScheduler);
        // A tick's flush (of due leases only) is running when shutdown asks for all of them.
        void scheduler.flush();
        await scheduler.flush(true);
        expect(add.mock.calls.map((call) => call[2]?.jobId)).toContain(expiryJobId(lease.checkout_id));
        expect(await queue.getJob(expiryJobId(lease.checkout_id))).toBeDefined();
      } finally {
        add.mockRestore();
      }
    });

    it('adds a lease’s job at checkout past MAX_PENDING leases in their grace, and removes it when the young lease ends', async () => {
      const r = await aRequester(t);
      await aTask(t, r);
      const [w] = await workers(1);
      const scheduler = t.app.get(CheckoutExpiryScheduler);
      const queue = t.app.get(ProducerQueues).checkoutExpiry;
      // Added at checkout, not left to wait out its grace (GRACE_MS) for a tick: seen by what `leased`
      // did with the lease, not by the time things took, which a loaded machine stretches past any
      // bound (a 500 ms poll was flaky, and so was the job's timestamp within half the grace). No tick
      // runs meanwhile: one would drop the fillers below (due after GRACE_MS, none active) and make room.
      const ticks = jest.spyOn(scheduler, 'flush').mockResolvedValue();
      const deferred: boolean[] = [];
      const original = scheduler.leased.bind(scheduler);
      const leased = jest.spyOn(scheduler, 'leased').mockImplementation((id, checkedOutAt, expiresAt) => {
        original(id, checkedOutAt, expiresAt);
        deferred.push((scheduler as unknown as { pending: Map<string, unknown> }).pending.has(id));
      });
      let lease: { checkout_id: string };
      try {
        // Leases of no checkout fill the process's grace.
        const far = new Date(Date.now() + 600_000);
        for (let i = 0; i < MAX_PENDING; i++) original(randomUUID(), new Date(), far);
        lease = (await checkOut(w, r.projectUuid)).body.data;
      } finally {
        leased.mockRestore();
        ticks.mockRestore();
      }
      expect(deferred).toEqual([false]);
      expect(await eventually(() => queue.getJob(expiryJobId(lease.checkout_id)), 10_000, 10)).toBeDefined();
      expect((await submit(w, lease.checkout_id)).status).toBe(201);
      expect(await eventually(async () => !(await queue.getJob(expiryJobId(lease.checkout_id))), 2_000)).toBe(true);
      await scheduler.flush(true);
    });

    // The routes take a UUID in either case; the job id was derived from the id as spelt in the URL, so
    // an upper-case one left the lease's job in Redis (~1 KB until its time, up to a day after the lease
    // ended, as any job left there would), and the answers echoed the URL's spelling.
    it.each([
      ['as given out', (id: string) => id],
      ['in upper case', (id: string) => id.toUpperCase()],
    ])('takes a lease’s expiry job off the queue when the lease is submitted or released through its id %s, and answers the id as given out', async (_spelling, spelt) => {
      const r = await aRequester(t);
      await aTask(t, r, { required_submissions: 2 });
      const [w1, w2] = await workers(2);
      const queue = t.app.get(ProducerQueues).checkoutExpiry;
      const queued = async (checkoutId: string) => Boolean(await queue.getJob(expiryJobId(checkoutId)));
      const gone = async (checkoutId: string) => !(await queued(checkoutId));
      const submitted = (await checkOut(w1, r.projectUuid)).body.data;
      const released = (await checkOut(w2, r.projectUuid)).body.data;
      expect(await eventually(() => queued(submitted.checkout_id), 5_000)).toBe(true);
      expect(await eventually(() => queued(released.checkout_id), 5_000)).toBe(true);

      expect((await submit(w1, spelt(submitted.checkout_id))).status).toBe(201);
      const res = await release(w2, spelt(released.checkout_id));
      expect([res.status, res.body.data]).toEqual([200, { checkout_id: released.checkout_id, state: 'released' }]);
      const read = await t.request({ method: 'GET', url: `/api/work/checkouts/${spelt(released.checkout_id)}`, headers: w2.auth });
      expect(read.body.data).toEqual({ checkout_id: released.checkout_id, state: 'released' });
      expect(await eventually(() => gone(submitted.checkout_id), 2_000)).toBe(true);
      expect(await eventually(() => gone(released.checkout_id), 2_000)).toBe(true);
    });
  });

  describe('releasing', () => {
    it('gives the task back at once; again is harmless; a submitted lease cannot be released', async () => {
      const r = await aRequester(t);
      await aTask(t, r, { required_submissions: 1 });
      const [w1, w2] = await workers(2);
      const lease = (await checkOut(w1, r.projectUuid)).body.data;
      expect(await release(w1, lease.checkout_id)).toMatchObject({ status: 200, body: { data: { checkout_id: lease.checkout_id, state: 'released' } } });
      expect((await release(w1, lease.checkout_id)).body.data.state).toBe('released');
      expect(await release(w2, lease.checkout_id)).toMatchObject({ status: 404 });
      const next = (await checkOut(w2, r.projectUuid)).body.data;
      expect(next.task_uuid).toBe(lease.task_uuid);
      expect((await submit(w1, lease.checkout_id)).body).toEqual({
        errors: [{ field: 'root', detail: 'checkout was released; check out a new task' }],
      });
      expect((await submit(w2, next.checkout_id)).status).toBe(201);
      expect((await release(w2, next.checkout_id)).status).toBe(422);
    });
  });

  describe('submitting', () => {
    it('credits the reward, completes the task with the last submission and writes the outbox event in the same transaction', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 2, reward: 40, callback_url: 'https://hooks.example.com/cb' });
      const [w1, w2] = await workers(2);
      const l1 = (await checkOut(w1, r.projectUuid)).body.data;
      const l2 = (await checkOut(w2, r.projectUuid)).body.data;
      const s1 = await submit(w1, l1.checkout_id);
      expect(s1.status).toBe(201);
      expect(Object.keys(s1.body.data)).toEqual(['submission_id', 'reward']);
      expect(s1.body.data.reward).toBe(40);
      const [before] = await t.db.query('SELECT completed_at FROM tasks WHERE id = $1', [taskId]);
      expect(before.completed_at).toBeNull();
      const s2 = await submit(w2, l2.checkout_id, { annotations: [{ ...BOX, center_x: 102 }], ...IMAGE });
      expect(s2.status).toBe(201);

      const view = await task(r, taskId);
      expect(view).toMatchObject({ submission_count: 2, checked_out_at: null });
      expect(view.submissions).toEqual([s1.body.data.submission_id, s2.body.data.submission_id]);
      const [done] = await t.db.query('SELECT completed_at FROM tasks WHERE id = $1', [taskId]);
      expect(done.completed_at).toBeInstanceOf(Date);
      const events = await t.db.query(
        `SELECT e.type, e.task_id, e.state, ep.url FROM webhook_events e JOIN webhook_endpoints ep ON ep.id = e.endpoint_id
          WHERE e.account_id = $1`,
        [r.accountId],
      );
      expect(events).toEqual([{ type: 'task_completed', task_id: taskId, state: 'pending', url: 'https://hooks.example.com/cb' }]);

      const annotations = await t.request({ method: 'GET', url: `/api/v1/tasks/${taskId}/annotations`, headers: { apikey: r.liveKey } });
      expect(annotations.body.data).toMatchObject({
        completed: true,
        annotations: [{ label: 'car', center_x: 101, center_y: 80, width: 40, height: 30, support: 2 }],
      });
      const project = await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}`, headers: { apikey: r.liveKey } });
      expect(project.body.data).toMatchObject({ lifetime_payments_to_workers_cents: 80, available_task_count: 0 });
      const earnings = await t.request({ method: 'GET', url: '/api/work/earnings', headers: w1.auth });
      expect(earnings.body.data).toEqual({
        submission_count: 1,
        earned_cents: 40,
        projects: [{ project_uuid: r.projectUuid, display_name: 'Find the cars', submission_count: 1, earned_cents: 40 }],
      });
    });

    it('writes no event for a task without callback_url', async () => {
      const r = await aRequester(t);
      await aTask(t, r, { required_submissions: 1 });
      const [w] = await workers(1);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      expect((await submit(w, lease.checkout_id)).status).toBe(201);
      const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM webhook_events WHERE account_id = $1', [r.accountId]);
      expect(n).toBe(0);
    });

    it('replays a repeated identical submit and refuses a different one', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 2 });
      const [w] = await workers(1);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      const body = { annotations: [BOX], ...IMAGE };
      const first = await submit(w, lease.checkout_id, body);
      const again = await submit(w, lease.checkout_id, { image_height: 480, image_width: 640, annotations: [{ ...BOX }] });
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      const other = await submit(w, lease.checkout_id, { annotations: [], ...IMAGE });
      expect(other.status).toBe(422);
      expect(other.body.errors[0].detail).toMatch(/already submitted/);
      expect((await task(r, taskId)).submission_count).toBe(1);
    });

    it('replays concurrent identical submits as one submission', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 1 });
      const [w] = await workers(1);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      const answers = await Promise.all(Array.from({ length: 5 }, () => submit(w, lease.checkout_id)));
      expect(answers.map((a) => a.status)).toEqual([201, 201, 201, 201, 201]);
      expect(new Set(answers.map((a) => a.body.data.submission_id)).size).toBe(1);
      expect((await task(r, taskId)).submission_count).toBe(1);
    });

    it('answers another worker’s checkout as not found', async () => {
      const r = await aRequester(t);
      await aTask(t, r);
      const [owner, thief] = await workers(2);
      const lease = (await checkOut(owner, r.projectUuid)).body.data;
      for (const id of [lease.checkout_id, randomUUID(), 'nope']) {
        expect(await submit(thief, id)).toMatchObject({ status: 404, body: { errors: [{ field: 'root', detail: 'checkout not found' }] } });
      }
      expect((await submit(owner, lease.checkout_id)).status).toBe(201);
    });

    it('refuses boxes outside the image, unknown labels, too many boxes and malformed bodies, changing nothing', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r);
      const [w] = await workers(1);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ annotations: [{ ...BOX, center_x: 630 }], ...IMAGE }, 'annotations.0'],
        [{ annotations: [BOX, { ...BOX, center_y: 470, height: 30 }], ...IMAGE }, 'annotations.1'],
        [{ annotations: [{ ...BOX, width: 700 }], ...IMAGE }, 'annotations.0'],
        [{ annotations: [{ ...BOX, label: 'bus' }], ...IMAGE }, 'annotations.0.label'],
        [{ annotations: Array.from({ length: 501 }, () => BOX), ...IMAGE }, 'annotations'],
        [{ annotations: [{ ...BOX, center_x: 10.5 }], ...IMAGE }, 'annotations.0.center_x'],
        [{ annotations: [{ ...BOX, width: 0 }], ...IMAGE }, 'annotations.0.width'],
        [{ annotations: [BOX], image_width: 0, image_height: 480 }, 'image_width'],
        [{ annotations: 'boxes', ...IMAGE }, 'annotations'],
        [{ ...IMAGE }, 'annotations'],
      ];
      for (const [body, field] of cases) {
        const res = await submit(w, lease.checkout_id, body);
        expect(res.status).toBe(422);
        expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      const garbage = await t.request({
        method: 'POST',
        url: `/api/work/checkouts/${lease.checkout_id}/submit`,
        headers: { ...w.auth, 'content-type': 'application/json' },
        body: '{"annotations": [',
      });
      expect(garbage.status).toBe(400);
      expect((await task(r, taskId)).submission_count).toBe(0);
      const [{ state }] = await t.db.query('SELECT state FROM checkouts WHERE id = $1', [lease.checkout_id]);
      expect(state).toBe('active');
      // A box touching the edges is inside.
      const edge = await submit(w, lease.checkout_id, { annotations: [{ label: 'person', center_x: 320, center_y: 240, width: 640, height: 480 }], ...IMAGE });
      expect(edge.status).toBe(201);
    });

    it.each([
      ['NUL', '\u0000'],
      ['a lone surrogate', '\ud800'],
    ])('refuses a label with %s with a 422 on its field, changing nothing', async (_, bad) => {
      // The label went into the submit's jsonb parameters as is, and PostgreSQL refused it: a 500.
      const r = await aRequester(t);
      const taskId = await aTask(t, r);
      const [w] = await workers(1);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      const res = await submit(w, lease.checkout_id, { annotations: [BOX, { ...BOX, label: `car${bad}` }], ...IMAGE });
      expect([res.status, res.body]).toEqual([422, { errors: [{ field: 'annotations.1.label', detail: UNSTORABLE_TEXT_DETAIL }] }]);
      expect((await task(r, taskId)).submission_count).toBe(0);
      expect((await submit(w, lease.checkout_id)).status).toBe(201);
    });
  });

  describe('boxes per task', () => {
    it('tells the worker how many boxes a submission of the task takes, and refuses one with more, changing nothing', async () => {
      const boxes = (n: number) => ({ annotations: Array.from({ length: n }, () => BOX), ...IMAGE });
      // 4,000 boxes a task (LIMITS.boxesPerTask): 500 a submission (LIMITS.boxesPerSubmission) up to 8
      // submissions, then 4,000 / required_submissions, rounded down.
      for (const [required, max] of [
        [1, 500],
        [8, 500],
        [11, 363],
        [20, 200],
        [100, 40],
      ]) {
        const r = await aRequester(t);
        const taskId = await aTask(t, r, { required_submissions: required });
        const [w] = await workers(1);
        const lease = (await checkOut(w, r.projectUuid)).body.data;
        expect(lease.max_boxes).toBe(max);
        const over = await submit(w, lease.checkout_id, boxes(max + 1));
        expect(over.status).toBe(422);
        expect(over.body.errors).toEqual([
          {
            field: 'annotations',
            detail:
              max === 500
                ? 'must hold at most 500 boxes'
                : `must hold at most ${max} boxes in this task (its ${required} submissions hold at most 4000 in all)`,
          },
        ]);
        const [{ state }] = await t.db.query('SELECT state FROM checkouts WHERE id = $1', [lease.checkout_id]);
        expect(state).toBe('active');
        expect((await task(r, taskId)).submission_count).toBe(0);
        // Exactly the maximum is taken.
        const atMax = await submit(w, lease.checkout_id, boxes(max));
        expect(atMax.status).toBe(201);
        expect((await task(r, taskId)).submission_count).toBe(1);
      }
    });
  });

  describe('a lease taken as another ran out, whose submit then completed the task', () => {
    it('answers its submit that the task was completed, reads it as completed, and lets the worker check out the next task', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 1 });
      const nextTaskId = await aTask(t, r, { required_submissions: 1 });
      const [late, taker] = await workers(2);
      // The same millisecond, as two transactions see it: `late`'s submit began while its lease was live
      // and `taker`'s checkout began once it had run out. Staged here as: run out, lease, live again, submit.
      const first = (await checkOut(late, r.projectUuid)).body.data;
      await runOut(first.checkout_id);
      const second = (await checkOut(taker, r.projectUuid)).body.data;
      expect(second.task_uuid).toBe(taskId);
      await t.db.query(`UPDATE checkouts SET expires_at = now() + interval '1 minute' WHERE id = $1`, [first.checkout_id]);
      expect((await submit(late, first.checkout_id)).status).toBe(201);
      expect((await task(r, taskId)).submission_count).toBe(1);
      // The requester API says no worker holds it (API.md §1): that lease can no longer be submitted.
      expect((await task(r, taskId)).checked_out_at).toBeNull();

      const refused = await submit(taker, second.checkout_id);
      expect(refused).toMatchObject({ status: 422, body: { errors: [{ field: 'root', detail: 'the task was completed by other workers; check out a new task' }] } });
      const read = await t.request({ method: 'GET', url: `/api/work/checkouts/${second.checkout_id}`, headers: taker.auth });
      expect(read.body.data.state).toBe('completed');
      // Not resumed, and not answered as the lease held: the next checkout is the next task.
      expect((await t.request({ method: 'GET', url: '/api/work/checkouts', headers: taker.auth })).body.data).toEqual([]);
      const next = await checkOut(taker, r.projectUuid);
      expect(next.status).toBe(201);
      expect(next.body.data.task_uuid).toBe(nextTaskId);
    });
  });

  describe('reading one lease', () => {
    it('answers its state without changing it: active, submitted, released, expired, cancelled; another worker’s is not found', async () => {
      const r = await aRequester(t);
      for (let i = 0; i < 4; i += 1) await aTask(t, r, { required_submissions: 1 });
      const [w1, w2, w3, w4] = await workers(4);
      const state = async (w: SignedIn, checkoutId: string) => {
        const res = await t.request({ method: 'GET', url: `/api/work/checkouts/${checkoutId}`, headers: w.auth });
        return res.status === 200 ? res.body.data.state : res.status;
      };
      const active = (await checkOut(w1, r.projectUuid)).body.data;
      expect(await t.request({ method: 'GET', url: `/api/work/checkouts/${active.checkout_id}`, headers: w1.auth })).toMatchObject({
        status: 200,
        body: { data: { checkout_id: active.checkout_id, state: 'active' } },
      });
      expect(await state(w1, active.checkout_id)).toBe('active');
      expect((await checkOut(w2, r.projectUuid)).body.data.task_uuid).not.toBe(active.task_uuid);

      const submitted = (await checkOut(w3, r.projectUuid)).body.data;
      expect((await submit(w3, submitted.checkout_id)).status).toBe(201);
      expect(await state(w3, submitted.checkout_id)).toBe('submitted');
      const released = (await checkOut(w4, r.projectUuid)).body.data;
      expect((await release(w4, released.checkout_id)).status).toBe(200);
      expect(await state(w4, released.checkout_id)).toBe('released');
      await runOut(active.checkout_id);
      expect(await state(w1, active.checkout_id)).toBe('expired');

      expect(await state(w2, active.checkout_id)).toBe(404);
      expect(await state(w1, randomUUID())).toBe(404);
      expect(await state(w1, 'not-a-uuid')).toBe(404);
      const cancelled = (await checkOut(w4, r.projectUuid)).body.data;
      await t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/cancel_outstanding`, headers: r.auth });
      expect(await state(w4, cancelled.checkout_id)).toBe('cancelled');
    });
  });

  describe('cancel_outstanding', () => {
    it('does not deadlock with a submit that holds its lease and waits for its task', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 2 });
      const [w] = await workers(1);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      // A submit's order: the lease row first (the submissions trigger), then its task.
      const submitting = await pgPool(t.db).connect();
      try {
        await submitting.query('BEGIN');
        await submitting.query('SELECT 1 FROM checkouts WHERE id = $1 FOR UPDATE', [lease.checkout_id]);
        const cancel = t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/cancel_outstanding`, headers: r.auth });
        await eventually(async () => (await t.db.query(`SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%checkouts%'`)).length > 0);
        // Taking the tasks first, cancel held this row and waited for the lease: PostgreSQL broke the cycle
        // by failing one side (40P01). Now cancel waits for the lease before it touches any task.
        await submitting.query('UPDATE tasks SET submission_count = submission_count WHERE id = $1', [taskId]);
        await submitting.query('COMMIT');
        expect((await cancel).body.data).toMatchObject({ cancelled: 1, ended_checkouts: 1 });
      } finally {
        submitting.release();
      }
    });

    it('ends every incomplete task and its leases; submissions stay readable; completed tasks are untouched', async () => {
      const r = await aRequester(t);
      const done = await aTask(t, r, { required_submissions: 1, reward: 10 });
      const partial = await aTask(t, r, { required_submissions: 2, reward: 30 });
      await aTask(t, r, { required_submissions: 3, reward: 50 });
      const [w1, w2, w3] = await workers(3);
      const l1 = (await checkOut(w1, r.projectUuid)).body.data;
      expect(l1.task_uuid).toBe(done);
      expect((await submit(w1, l1.checkout_id)).status).toBe(201);
      const l2 = (await checkOut(w2, r.projectUuid)).body.data;
      expect(l2.task_uuid).toBe(partial);
      expect((await submit(w2, l2.checkout_id)).status).toBe(201);
      const l3 = (await checkOut(w3, r.projectUuid)).body.data;
      expect(l3.task_uuid).toBe(partial);

      const other = await aRequester(t);
      const untouched = await aTask(t, other);
      const cancel = (who: SignedIn, uuid: string) =>
        t.request({ method: 'POST', url: `/api/console/projects/${uuid}/cancel_outstanding`, headers: who.auth });
      expect((await cancel(other, r.projectUuid)).status).toBe(404);

      const res = await cancel(r, r.projectUuid);
      expect(res.status).toBe(200);
      // partial: 1 missing x 30; fresh: 3 missing x 50.
      expect(res.body.data).toEqual({ cancelled: 2, unspent_reward_cents: 30 + 150, ended_checkouts: 1 });
      expect((await cancel(r, r.projectUuid)).body.data).toEqual({ cancelled: 0, unspent_reward_cents: 0, ended_checkouts: 0 });

      expect(await submit(w3, l3.checkout_id)).toMatchObject({
        status: 422,
        body: { errors: [{ field: 'root', detail: 'the task was cancelled by its requester' }] },
      });
      const [w4] = await workers(1);
      expect(await checkOut(w4, r.projectUuid)).toMatchObject({ status: 404, body: noTask });
      expect((await task(r, partial)).submissions).toHaveLength(1);
      expect((await task(r, partial)).checked_out_at).toBeNull();
      const [{ completed_at, cancelled_at }] = await t.db.query('SELECT completed_at, cancelled_at FROM tasks WHERE id = $1', [done]);
      expect(completed_at).toBeInstanceOf(Date);
      expect(cancelled_at).toBeNull();
      const project = await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}`, headers: { apikey: r.liveKey } });
      expect(project.body.data).toMatchObject({ available_task_count: 0, average_outstanding_task_reward_cents: 0, lifetime_payments_to_workers_cents: 40 });
      expect((await task(other, untouched)).submission_count).toBe(0);
      expect((await checkOut(w4, other.projectUuid)).status).toBe(201);
    });
  });

  describe('projects with work', () => {
    it('lists other accounts’ projects with tasks this worker can take, and how many', async () => {
      const r = await aRequester(t, { display_name: 'Count the bikes', default_reward: 12 });
      await aTask(t, r, { required_submissions: 1 });
      await aTask(t, r, { required_submissions: 1, reward: 15 });
      const [w1, w2] = await workers(2);
      const mine = async (w: SignedIn) =>
        ((await t.request({ method: 'GET', url: '/api/work/projects', headers: w.auth })).body.data as Array<{ uuid: string; available_task_count: number }>).find(
          (p) => p.uuid === r.projectUuid,
        );
      expect(await mine(w1)).toEqual({
        uuid: r.projectUuid,
        display_name: 'Count the bikes',
        display_short_description: 'Draw a box around every car.',
        // The range of the tasks' rewards: tasks go out oldest first, so the next may pay the least.
        reward: 15,
        min_reward: 12,
        allowed_completion_time_seconds: 600,
        available_task_count: 2,
      });
      await checkOut(w1, r.projectUuid);
      expect((await mine(w1))?.available_task_count).toBe(1);
      // w1 holds the oldest task (12, its one slot): the task left to anyone pays 15.
      expect(await mine(w1)).toMatchObject({ reward: 15, min_reward: 15 });
      expect(await mine(w2)).toMatchObject({ reward: 15, min_reward: 15 });
      expect((await mine(w2))?.available_task_count).toBe(1);
      expect(await mine(r)).toBeUndefined();
    });

    it('shows the time the tasks allow, not the project’s default, when add_task set it', async () => {
      const r = await aRequester(t, { allowed_completion_time_seconds: 600 });
      await aTask(t, r, { required_submissions: 1, allowed_completion_time_seconds: 60 });
      const [w] = await workers(1);
      const listed = (await t.request({ method: 'GET', url: '/api/work/projects', headers: w.auth })).body.data.find(
        (p: { uuid: string }) => p.uuid === r.projectUuid,
      );
      expect(listed.allowed_completion_time_seconds).toBe(60);
      const lease = (await checkOut(w, r.projectUuid)).body.data;
      expect(Date.parse(lease.expires_at) - Date.parse(lease.checked_out_at)).toBe(60_000);
    });
  });

  describe('the database itself refuses what breaks the invariants', () => {
    it('a lease on a full, completed or cancelled task; a lease brought back; a submission without a live lease; a count out of step', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 1 });
      const [w1, w2] = await workers(2);
      const lease = (await checkOut(w1, r.projectUuid)).body.data;
      const insertLease = (worker: string) =>
        t.db.query(`INSERT INTO checkouts (id, task_id, worker_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 minute')`, [
          randomUUID(),
          taskId,
          worker,
        ]);
      await expect(insertLease(w2.userId)).rejects.toMatchObject({ code: 'CB002' });
      const insertSubmission = (checkoutId: string, worker: string) =>
        t.db.query(
          `INSERT INTO submissions (id, checkout_id, task_id, worker_id, boxes, image_width, image_height, reward, request_hash)
           VALUES ($1, $2, $3, $4, '[]', 10, 10, 1, 'x')`,
          [randomUUID(), checkoutId, taskId, worker],
        );
      await expect(insertSubmission(lease.checkout_id, w2.userId)).rejects.toMatchObject({ code: 'CB005' });
      // Inserting the submission without counting it fails at commit.
      await expect(insertSubmission(lease.checkout_id, w1.userId)).rejects.toMatchObject({ code: 'CB007' });
      await expect(t.db.query('UPDATE tasks SET submission_count = 2 WHERE id = $1', [taskId])).rejects.toMatchObject({ code: '23514' });
      await expect(t.db.query('UPDATE tasks SET completed_at = now() WHERE id = $1', [taskId])).rejects.toMatchObject({ code: '23514' });
      // A lease ends as submitted only with its submission, and only with the task's lease count taken
      // down with it (the submit does that itself, no trigger does: migration 1764500000000).
      await expect(t.db.query(`UPDATE checkouts SET state = 'submitted' WHERE id = $1`, [lease.checkout_id])).rejects.toMatchObject({
        code: 'CB004',
      });
      // Each attempt writes the submission and then the given updates, in one transaction.
      const submitByHand = (updates: string[]) =>
        t.db.transaction(async (m) => {
          await m.query(
            `INSERT INTO submissions (id, checkout_id, task_id, worker_id, boxes, image_width, image_height, reward, request_hash)
             VALUES ($1, $2, $3, $4, '[]', 10, 10, 1, 'x')`,
            [randomUUID(), lease.checkout_id, taskId, w1.userId],
          );
          for (const update of updates) await m.query(update, [lease.checkout_id]);
        });
      const counted = `UPDATE tasks t SET submission_count = 1, completed_at = now() FROM checkouts c WHERE c.id = $1 AND t.id = c.task_id`;
      const ended = `UPDATE checkouts SET state = 'submitted' WHERE id = $1`;
      await expect(submitByHand([counted])).rejects.toMatchObject({ code: 'CB007' }); // the lease left active
      await expect(submitByHand([counted, ended])).rejects.toMatchObject({ code: 'CB007' }); // leased_count not taken down
      const [after] = await t.db.query('SELECT submission_count, leased_count FROM tasks WHERE id = $1', [taskId]);
      expect(after).toEqual({ submission_count: 0, leased_count: 1 });

      expect((await release(w1, lease.checkout_id)).status).toBe(200);
      await expect(insertLease(w1.userId)).rejects.toMatchObject({ code: '23505' });
      await expect(t.db.query(`UPDATE checkouts SET state = 'active' WHERE id = $1`, [lease.checkout_id])).rejects.toMatchObject({
        code: 'CB004',
      });
      await expect(insertSubmission(lease.checkout_id, w1.userId)).rejects.toMatchObject({ code: 'CB006' });
      await t.db.query('UPDATE tasks SET cancelled_at = now() WHERE id = $1', [taskId]);
      await expect(insertLease(w2.userId)).rejects.toMatchObject({ code: 'CB001' });
    });
  });

  describe('the lease count on the task row (the lease query’s hint)', () => {
    /** What the triggers keep on the task row, and what the checkouts say it should be. */
    const hintAndTruth = (taskId: string) => leaseHintAndTruth(t.db, taskId);
    const expectExact = async (taskId: string, active: number) => {
      const { hint, truth } = await hintAndTruth(taskId);
      expect(hint).toEqual(truth);
      expect(hint[0]).toBe(active);
    };
    /** After a submit of the earliest of several leases: the count exact, the expiry a lower bound. */
    const expectLowerBound = async (taskId: string, active: number) => {
      const { hint, truth } = await hintAndTruth(taskId);
      expect(hint[0]).toBe(active);
      expect(truth[0]).toBe(active);
      expect(hint[1] !== null && truth[1] !== null && hint[1] <= truth[1]).toBe(true);
    };

    it('follows every lease through checkout, submit, release, a changed expires_at, expiry, delete and cancel', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 3 });
      const [w1, w2, w3, w4, w5] = await workers(5);
      await expectExact(taskId, 0);
      const l1 = (await checkOut(w1, r.projectUuid)).body.data;
      await expectExact(taskId, 1);
      const l2 = (await checkOut(w2, r.projectUuid)).body.data;
      await expectExact(taskId, 2);
      expect((await submit(w1, l1.checkout_id)).status).toBe(201);
      // l1 was the earliest: the submit keeps its expiry as a lower bound (migration 1764500000000).
      await expectLowerBound(taskId, 1);
      expect((await release(w2, l2.checkout_id)).status).toBe(200);
      await expectExact(taskId, 0);

      const l3 = (await checkOut(w3, r.projectUuid)).body.data;
      const l4 = (await checkOut(w4, r.projectUuid)).body.data;
      await expectExact(taskId, 2);
      await runOut(l3.checkout_id); // the earliest expiry moves into the past with it
      await expectExact(taskId, 2);
      expect(await expireLeases(t.db, l3.checkout_id)).toEqual([l3.checkout_id]);
      await expectExact(taskId, 1);
      // A refused lease leaves the count as it was: w3 leased this task before (its lease expired), and
      // w4 holds a live lease in the project (migration 1765600000000).
      const leaseAgain = (workerId: string) =>
        t.db.query(`INSERT INTO checkouts (id, task_id, worker_id, expires_at) VALUES ($1, $2, $3, now() + interval '1 minute')`, [
          randomUUID(),
          taskId,
          workerId,
        ]);
      await expect(leaseAgain(w3.userId)).rejects.toMatchObject({ code: '23505' });
      await expectExact(taskId, 1);
      await expect(leaseAgain(w4.userId)).rejects.toMatchObject({ code: 'CB008' });
      await expectExact(taskId, 1);
      await t.db.query('DELETE FROM checkouts WHERE id = $1', [l4.checkout_id]);
      await expectExact(taskId, 0);

      await checkOut(w5, r.projectUuid);
      await expectExact(taskId, 1);
      const cancelled = await t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/cancel_outstanding`, headers: r.auth });
      expect(cancelled.body.data.ended_checkouts).toBe(1);
      await expectExact(taskId, 0);
    });

    it('a full task whose lease ran out is leased again at once, though the count still holds that lease', async () => {
      const r = await aRequester(t);
      const taskId = await aTask(t, r, { required_submissions: 1 });
      const [w1, w2] = await workers(2);
      const lease = (await checkOut(w1, r.projectUuid)).body.data;
      await runOut(lease.checkout_id);
      expect((await hintAndTruth(taskId)).hint[0]).toBe(1); // the expiry job has not run
      const next = await checkOut(w2, r.projectUuid);
      expect(next.status).toBe(201);
      expect(next.body.data.task_uuid).toBe(taskId);
      // The run-out lease is still `active` until the job marks it, so both count.
      await expectExact(taskId, 2);
    });
  });

  describe('a race of 50 workers on 10 tasks x 3 submissions', () => {
    it('ends with exactly 30 submissions, 3 distinct workers per task, and no error but "no task available"', async () => {
      const r = await aRequester(t);
      const taskIds = [];
      for (let i = 0; i < 10; i++) taskIds.push(await aTask(t, r, { required_submissions: 3 }));
      const crowd = await workers(50);
      const unexpected: unknown[] = [];
      const work = async (w: SignedIn) => {
        for (;;) {
          const res = await checkOut(w, r.projectUuid);
          if (res.status === 404 && res.body.errors?.[0]?.detail === 'no task available') return;
          if (res.status !== 201) {
            unexpected.push(res.body);
            return;
          }
          const done = await submit(w, res.body.data.checkout_id);
          if (done.status !== 201) unexpected.push(done.body);
        }
      };
      await Promise.all(crowd.map(work));
      expect(unexpected).toEqual([]);
      const rows: Array<{ task_id: string; n: number; workers: number }> = await t.db.query(
        `SELECT t.id AS task_id, count(s.id)::int AS n, count(DISTINCT s.worker_id)::int AS workers
           FROM tasks t LEFT JOIN submissions s ON s.task_id = t.id WHERE t.project_id = $1 GROUP BY t.id`,
        [r.projectUuid],
      );
      expect(rows).toHaveLength(10);
      for (const row of rows) expect(row).toMatchObject({ n: 3, workers: 3 });
      const [{ total, complete }] = await t.db.query(
        `SELECT sum(submission_count)::int AS total, count(*) FILTER (WHERE completed_at IS NOT NULL)::int AS complete FROM tasks WHERE project_id = $1`,
        [r.projectUuid],
      );
      expect({ total, complete }).toEqual({ total: 30, complete: 10 });
      // Every lease ended: the lease count on each task row is back to nothing.
      const [hint] = await t.db.query(
        `SELECT sum(leased_count)::int AS leased, count(lease_expiry_min)::int AS with_expiry FROM tasks WHERE project_id = $1`,
        [r.projectUuid],
      );
      expect(hint).toEqual({ leased: 0, with_expiry: 0 });
    });
  });
});
