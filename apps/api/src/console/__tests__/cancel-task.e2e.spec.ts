import { WORK_ERROR } from '@crowdbox/contracts';
import { aRequester, aTask, checkOut as checkOutIn, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';

/** POST /api/console/projects/:uuid/tasks/:task_uuid/cancel (docs/decisions.md, "Cancelling one task"). */
describe('cancelling one task from the console', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const newTask = (r: Requester, required = 2, reward = 25) => aTask(t, r, { required_submissions: required, reward });
  const checkOut = (w: SignedIn, r: Requester) => checkOutIn(t, w, r.projectUuid);
  const submit = (w: SignedIn, checkoutId: string) => submitABox(t, w, checkoutId);
  const cancel = (who: SignedIn, projectUuid: string, taskUuid: string) =>
    t.request({ method: 'POST', url: `/api/console/projects/${projectUuid}/tasks/${taskUuid}/cancel`, headers: who.auth });
  const states = async (r: Requester): Promise<Record<string, { cancelled: boolean; active: number }>> => {
    const rows: Array<{ id: string; cancelled: boolean; active: number }> = await t.db.query(
      `SELECT t.id, t.cancelled_at IS NOT NULL AS cancelled,
              (SELECT count(*)::int FROM checkouts c WHERE c.task_id = t.id AND c.state = 'active') AS active
         FROM tasks t WHERE t.project_id = $1`,
      [r.projectUuid],
    );
    return Object.fromEntries(rows.map(({ id, ...rest }) => [id, rest]));
  };

  it('cancels that task alone: its lease ends, its submissions stay, the other tasks go on', async () => {
    const r = await aRequester(t);
    const target = await newTask(r, 3, 30);
    const other = await newTask(r, 2, 25);
    const [w1, w2] = await Promise.all([signUp(t), signUp(t)]);
    const done = await checkOut(w1, r);
    expect(done.task_uuid).toBe(target);
    expect((await submit(w1, done.checkout_id)).status).toBe(201);
    const held = await checkOut(w2, r);
    expect(held.task_uuid).toBe(target);
    const elsewhere = await checkOut(w1, r);
    expect(elsewhere.task_uuid).toBe(other);

    const res = await cancel(r, r.projectUuid, target);
    expect(res.status).toBe(200);
    // Two submissions missing at 30 cents; w2's lease ended.
    expect(res.body).toEqual({ data: { cancelled: 1, unspent_reward_cents: 60, ended_checkouts: 1 } });
    expect(await states(r)).toEqual({ [target]: { cancelled: true, active: 0 }, [other]: { cancelled: false, active: 1 } });

    // The lease's submit is refused as cancelled; the submission made before stays readable.
    expect(await submit(w2, held.checkout_id)).toMatchObject({ status: 422, body: { errors: [{ field: 'root', detail: WORK_ERROR.cancelled }] } });
    const detail = await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${target}`, headers: r.auth });
    expect(detail.body.data).toMatchObject({ state: 'cancelled', submission_count: 1 });
    expect(detail.body.data.results.submissions).toHaveLength(1);
    // The other task is still worked on.
    expect((await submit(w1, elsewhere.checkout_id)).status).toBe(201);
  });

  it('cancels nothing again, nor a completed task, and answers so', async () => {
    const r = await aRequester(t);
    const complete = await newTask(r, 1);
    const open = await newTask(r, 1);
    const w = await signUp(t);
    const lease = await checkOut(w, r);
    expect(lease.task_uuid).toBe(complete);
    expect((await submit(w, lease.checkout_id)).status).toBe(201);

    const nothing = { data: { cancelled: 0, unspent_reward_cents: 0, ended_checkouts: 0 } };
    expect((await cancel(r, r.projectUuid, complete)).body).toEqual(nothing);
    expect((await t.db.query('SELECT cancelled_at FROM tasks WHERE id = $1', [complete]))[0].cancelled_at).toBeNull();
    expect((await cancel(r, r.projectUuid, open)).body.data.cancelled).toBe(1);
    const cancelledAt = (await t.db.query('SELECT cancelled_at FROM tasks WHERE id = $1', [open]))[0].cancelled_at;
    expect((await cancel(r, r.projectUuid, open)).body).toEqual(nothing);
    // The first cancel's time stays.
    expect((await t.db.query('SELECT cancelled_at FROM tasks WHERE id = $1', [open]))[0].cancelled_at).toEqual(cancelledAt);
  });

  it('is not found for another project’s task, another account, or no task at all, and changes nothing', async () => {
    const r = await aRequester(t);
    const mine = await newTask(r);
    const someoneElse = await aRequester(t);
    const theirs = await newTask(someoneElse);
    const notFound = { errors: [{ field: 'root', detail: 'task not found' }] };

    expect(await cancel(r, r.projectUuid, theirs)).toMatchObject({ status: 404, body: notFound });
    expect(await cancel(r, r.projectUuid, 'not-a-uuid')).toMatchObject({ status: 404, body: notFound });
    expect(await cancel(r, r.projectUuid, '00000000-0000-4000-8000-000000000000')).toMatchObject({ status: 404, body: notFound });
    expect((await cancel(someoneElse, r.projectUuid, mine)).status).toBe(404);
    expect((await t.request({ method: 'POST', url: `/api/console/projects/${r.projectUuid}/tasks/${mine}/cancel` })).status).toBe(401);

    expect(await states(r)).toEqual({ [mine]: { cancelled: false, active: 0 } });
    expect(await states(someoneElse)).toEqual({ [theirs]: { cancelled: false, active: 0 } });
  });
});
