import { randomUUID } from 'node:crypto';
import { aRequester, aTask, checkOut, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import type { SessionPrincipal } from '../../common/http/principal';
import { MAX_CACHED_LIST_CHARS, WorkSummaryService, workListChars } from '../work-summary.service';

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

  it('keeps lists by their size too: a burst of long lists pushes the oldest out, long before 10,000 lists', async () => {
    const r = await aRequester(t);
    const taskId = await newTask(r);
    // 2,000 more projects with a task each, their display texts as long as a requester may make them: a
    // list of ~2.7 Mi characters, of which MAX_CACHED_LIST_CHARS holds 6.
    await t.db.query(
      `WITH made AS (
         INSERT INTO projects
         SELECT (jsonb_populate_record(p, jsonb_build_object('id', gen_random_uuid(), 'name', 'p' || i,
                   'display_name', repeat('n', 200), 'display_short_description', repeat('d', 1000)))).*
           FROM projects p, generate_series(1, 2000) i WHERE p.id = $1
         RETURNING id
       )
       INSERT INTO tasks SELECT (jsonb_populate_record(tk, jsonb_build_object('id', gen_random_uuid(), 'project_id', made.id))).*
         FROM made, tasks tk WHERE tk.id = $2`,
      [r.projectUuid, taskId],
    );
    // Through the service, not HTTP: eight lists of ~2.7 MB of JSON each would take most of the 2 s.
    const lists = t.app.get(WorkSummaryService);
    const crowd: SessionPrincipal[] = Array.from({ length: 8 }, (_, i) => ({
      userId: randomUUID(),
      accountId: randomUUID(),
      email: `w${i}@example.com`,
      name: 'Worker',
      sessionId: randomUUID(),
    }));
    const first = await lists.projects(crowd[0]);
    expect(first.length).toBeGreaterThan(2000);
    expect(workListChars(first) * 6).toBeLessThan(MAX_CACHED_LIST_CHARS);
    expect(workListChars(first) * 7).toBeGreaterThan(MAX_CACHED_LIST_CHARS);
    for (const w of crowd.slice(1)) await lists.projects(w);
    expect(aggregateCount()).toBe(8);
    // Counted among the cache's entries whether or not their 2 s have passed (an expired entry stays
    // until it is read or pushed out), so a slow host cannot pass this for the wrong reason or fail it:
    // 8 lists without the size bound, the 6 that fit with it.
    const entries = (lists as unknown as { projectLists: { entries: { size: number } } }).projectLists.entries;
    expect(entries.size).toBe(6);
    // The last one is still kept.
    await lists.projects(crowd[7]);
    expect(aggregateCount()).toBe(8);
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
