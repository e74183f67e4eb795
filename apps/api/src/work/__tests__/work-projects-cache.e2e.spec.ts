import { aRequester, aTask, checkOut, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';

/** GET /api/work/projects repeated by one worker is answered from memory for up to 2 s. */
describe('the work list is cached per worker for a moment', () => {
  let t: TestApp;
  let aggregates: jest.SpyInstance;
  beforeAll(async () => {
    t = await startTestApp();
  });
  beforeEach(() => {
    // The list's aggregate is the one statement that looks for tasks the worker never leased.
    aggregates = jest.spyOn(t.db, 'query');
  });
  afterEach(() => aggregates.mockRestore());
  afterAll(() => t.close());

  const aggregateCount = () => aggregates.mock.calls.filter(([sql]) => String(sql).includes('FROM checkouts mine')).length;
  const newTask = (r: Requester) => aTask(t, r, { required_submissions: 1 });
  const available = async (w: SignedIn, r: Requester): Promise<number | undefined> => {
    const res = await t.request({ method: 'GET', url: '/api/work/projects', headers: w.auth });
    expect(res.status).toBe(200);
    return (res.body.data as Array<{ uuid: string; available_task_count: number }>).find((p) => p.uuid === r.projectUuid)?.available_task_count;
  };

  it('asks the database once for a burst of the same worker’s lists; their own checkout, submit and release show at once', async () => {
    const r = await aRequester(t);
    for (let i = 0; i < 3; i++) await newTask(r);
    const [w1, w2] = await Promise.all([signUp(t), signUp(t)]);

    expect(await Promise.all(Array.from({ length: 10 }, () => available(w1, r)))).toEqual(Array(10).fill(3));
    for (let i = 0; i < 5; i++) expect(await available(w1, r)).toBe(3);
    expect(aggregateCount()).toBe(1);
    // Another worker's list is their own.
    expect(await available(w2, r)).toBe(3);
    expect(aggregateCount()).toBe(2);

    const lease = await checkOut(t, w1, r.projectUuid);
    expect(await available(w1, r)).toBe(2);
    const released = await t.request({ method: 'POST', url: `/api/work/checkouts/${lease.checkout_id}/release`, headers: w1.auth });
    expect(released.status).toBe(200);
    // A released task stays one this worker touched: it is not offered to them again.
    expect(await available(w1, r)).toBe(2);
    const next = await checkOut(t, w1, r.projectUuid);
    expect(await available(w1, r)).toBe(1);
    const submitted = await submitABox(t, w1, next.checkout_id);
    expect(submitted.status).toBe(201);
    expect(await available(w1, r)).toBe(1);
    expect(aggregateCount()).toBe(6);
  });

  it('shows others’ changes once the moment has passed', async () => {
    const r = await aRequester(t);
    await newTask(r);
    const w = await signUp(t);
    expect(await available(w, r)).toBe(1);
    await newTask(r);
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    expect(await available(w, r)).toBe(2);
  });
});
