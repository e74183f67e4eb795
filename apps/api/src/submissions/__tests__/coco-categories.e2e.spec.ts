import { A_BOX, aRequester, aTask, checkOut, signUp, submitABox } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';

/**
 * A node's project is cached for CACHE_TTL_MS, and boxes are read as they are: an export on a node that
 * still has the project from before a label rename meets boxes with the new label. Every box's
 * category_id must still be a category of the file.
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
});
