import { A_BOX, aRequester, aTask, checkOut, signUp, submitABox, type Requester } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';

/**
 * A node's project is cached for CACHE_TTL_MS, and boxes are read as they are: an export on a node that
 * still has the project from before a label rename meets boxes with the new label. Every box's
 * category_id must still be a category of the file. Its IoU threshold, though, is read from the
 * database for each export (the last test).
 */
describe('COCO categories on a node whose project is from before a label rename', () => {
  let a: TestApp & { database: string };
  let b: TestApp;
  beforeAll(async () => {
    a = await startTestApp({ CACHE_TTL_MS: '60000' });
    b = await startTestApp({ CACHE_TTL_MS: '60000' }, { database: a.database });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('lists the label a box carries though the project it began with had no such label', async () => {
    const r = await aRequester(a);
    await aTask(a, r, { required_submissions: 1 });
    const coco = async (t: TestApp) =>
      JSON.parse((await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}/annotations?format=coco`, headers: { apikey: r.liveKey } })).text);
    await coco(b); // b caches the project with its labels car, person
    const patch = await a.request({ method: 'PATCH', url: `/api/console/projects/${r.projectUuid}`, headers: r.auth, body: { labels: ['vehicle', 'person'] } });
    expect(patch.status).toBe(200);
    const w = await signUp(a);
    const lease = await checkOut(a, w, r.projectUuid);
    const submit = await submitABox(a, w, lease.checkout_id, { annotations: [{ ...A_BOX, label: 'vehicle' }] });
    expect(submit.status).toBe(201);

    const file = await coco(b);
    const names = new Map(file.categories.map((c: { id: number; name: string }) => [c.id, c.name]));
    expect(file.annotations).toHaveLength(1);
    expect(names.get(file.annotations[0].category_id)).toBe('vehicle');
    // The project's own labels keep their ids, first.
    expect(file.categories.slice(0, 2).map((c: { name: string }) => c.name)).toEqual(['car', 'person']);
  });

  it('exports with the threshold the database has, not the one of a node that cached the project before a change', async () => {
    const r: Requester = await aRequester(a);
    const get = (t: TestApp, format: string) =>
      t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}/annotations?format=${format}`, headers: { apikey: r.liveKey } });
    expect((await get(b, 'json')).status).toBe(200); // b caches the project at its threshold 0.5
    const patch = await a.request({ method: 'PATCH', url: `/api/console/projects/${r.projectUuid}`, headers: r.auth, body: { consensus_iou_threshold: 0.75 } });
    expect(patch.status).toBe(200);
    const taskId = await aTask(a, r, { required_submissions: 2 });
    // IoU 0.6 (x 80..120 against 90..130, the same height): one box at 0.5, two at 0.75.
    for (const center_x of [100, 110]) {
      const w = await signUp(a);
      const lease = await checkOut(a, w, r.projectUuid);
      expect((await submitABox(a, w, lease.checkout_id, { annotations: [{ ...A_BOX, center_x }] })).status).toBe(201);
    }
    const stored = async () => (await a.db.query('SELECT consensus::text AS consensus, consensus_iou_threshold AS threshold FROM tasks WHERE id = $1', [taskId]))[0];
    const before = await stored();
    expect(before.threshold).toBe(0.75);

    // With its cached 0.5, b took the consensus stored at 0.75 for one that does not hold, answered its
    // own and stored that over it.
    const json = await get(b, 'json');
    expect(json.body.data[0].annotations.map((x: { support: number }) => x.support)).toEqual([1, 1]);
    expect(await stored()).toEqual(before);
    const coco = JSON.parse((await get(b, 'coco')).text);
    expect(coco.annotations).toHaveLength(2);
    const csv = (await get(b, 'csv')).text.split('\r\n').filter((line) => line !== '');
    expect(csv).toHaveLength(3);
    // The console's task page too: it read the cached threshold and stored its consensus the same way.
    const page = await b.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${taskId}`, headers: r.auth });
    expect(page.body.data.results.annotations.map((x: { support: number }) => x.support)).toEqual([1, 1]);
    // And its worker agreement: the two boxes do not match at 0.75.
    const workers = await b.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/workers`, headers: r.auth });
    expect(workers.body.data.workers.map((w: { matched: number }) => w.matched)).toEqual([0, 0]);
    await a.db.query('UPDATE tasks SET consensus_rule = 1 WHERE id = $1', [taskId]); // computed again, and stored
    expect((await b.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${taskId}`, headers: r.auth })).status).toBe(200);
    expect(await stored()).toEqual(before);
  });
});
