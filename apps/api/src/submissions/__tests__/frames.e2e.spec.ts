import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, aTask, checkOut, signUp, submitABox, type Requester, type SignedIn } from '../../../test/factories';
import { completeInDb, submitInDb } from '../../../test/work-fixtures';
import { CAR_1, CAR_2, CAR_3, LONE_PERSON, MERGED_CAR, SHARED_PERSON, type Box } from '../../../test/consensus-fixtures';
import { CONSENSUS_RULE } from '../stored-consensus';

const SMALL = { image_width: 640, image_height: 480 };
const LARGE = { image_width: 1280, image_height: 960 };
/** A box drawn on the LARGE copy of the picture where `b` was drawn on the SMALL one. */
const doubled = (b: Box): Box => ({ label: b.label, center_x: b.center_x * 2, center_y: b.center_y * 2, width: b.width * 2, height: b.height * 2 });

/**
 * One frame per task (docs/decisions.md): workers' browsers can report different sizes for one task's
 * image, and each draws in the pixels of its own. A task's boxes are put into the frame of its first
 * submission before they are merged, and every answer shows them in that frame.
 */
describe('one frame per task', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const get = (key: string, url: string) => t.request({ method: 'GET', url, headers: { apikey: key } });
  const submitThroughWorkerApi = async (r: Requester, w: SignedIn, annotations: Box[], size: typeof SMALL) => {
    const lease = await checkOut(t, w, r.projectUuid);
    expect((await submitABox(t, w, lease.checkout_id, { annotations, ...size })).status).toBe(201);
  };

  it('merges the boxes of workers who saw two sizes, in the first submission’s frame, in every answer', async () => {
    const r = await aRequester(t);
    const taskId = await aTask(t, r, { required_submissions: 3 });
    const [w1, w2, w3] = [await signUp(t), await signUp(t), await signUp(t)];
    // The first worker saw the large copy: that is the task's frame, though two of three saw the small one.
    await submitThroughWorkerApi(r, w1, [doubled(SHARED_PERSON), doubled(CAR_2)], LARGE);
    await submitThroughWorkerApi(r, w2, [CAR_1, LONE_PERSON], SMALL);
    await submitThroughWorkerApi(r, w3, [CAR_3, SHARED_PERSON], SMALL);

    // Unscaled, the large car would overlap no small one and the person would lose its second vote.
    const expected = [
      { ...doubled(MERGED_CAR), support: 3, agreement: expect.any(Number) },
      { ...doubled(SHARED_PERSON), support: 2, agreement: 1 },
    ];
    const answers = async () => {
      const one = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations?view=submissions`);
      const exported = await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations`);
      const coco = JSON.parse((await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations?format=coco`)).text);
      const console = await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/tasks/${taskId}`, headers: r.auth });
      return {
        one: one.body.data.annotations,
        exported: exported.body.data[0].annotations,
        console: console.body.data.results.annotations,
        consoleFrame: console.body.data.frame,
        cocoImage: [coco.images[0].width, coco.images[0].height],
        cocoBoxes: coco.annotations.map((a: { bbox: number[] }) => a.bbox),
        submissions: one.body.data.submissions.map((s: { annotations: Box[] }) => s.annotations),
        consoleSubmissions: console.body.data.results.submissions.map((s: { annotations: Box[] }) => s.annotations),
      };
    };
    const stored = await answers();
    expect(stored).toEqual({
      one: expected,
      exported: expected,
      console: expected,
      consoleFrame: { width: 1280, height: 960 },
      cocoImage: [1280, 960],
      cocoBoxes: [
        [202, 100, 200, 204],
        [560, 320, 80, 160],
      ],
      // Each worker's own boxes, in the frame too.
      submissions: [
        [doubled(SHARED_PERSON), doubled(CAR_2)],
        [doubled(CAR_1), doubled(LONE_PERSON)],
        [doubled(CAR_3), doubled(SHARED_PERSON)],
      ],
      consoleSubmissions: expect.any(Array),
    });
    expect(stored.consoleSubmissions).toEqual(stored.submissions);

    // The completing submit stored it (task_consensus_inputs); readers that compute it agree byte for byte.
    const [{ consensus }] = await t.db.query('SELECT consensus::text FROM tasks WHERE id = $1', [taskId]);
    expect(JSON.parse(consensus)).toEqual(expected);
    await t.db.query('UPDATE tasks SET consensus = NULL, consensus_iou_threshold = NULL WHERE id = $1', [taskId]);
    const one = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`);
    expect(JSON.stringify(one.body.data.annotations)).toBe(consensus);
    await t.db.query('UPDATE tasks SET consensus = NULL, consensus_iou_threshold = NULL WHERE id = $1', [taskId]);
    expect(await answers()).toEqual(stored);
  });

  it('stores the frame with the consensus for COCO, which looks the first submission up only where none is stored', async () => {
    const r = await aRequester(t);
    const solo = await aTask(t, r, { required_submissions: 1 });
    const pair = await aTask(t, r, { required_submissions: 2 });
    const [w1, w2] = [await signUp(t), await signUp(t)];
    // Tasks are leased oldest first: w1 gets the solo task, then each worker one of the pair's two slots.
    await submitThroughWorkerApi(r, w1, [CAR_1], LARGE);
    await submitThroughWorkerApi(r, w1, [CAR_1], SMALL);
    await submitThroughWorkerApi(r, w2, [doubled(CAR_2)], LARGE);
    const frames = async () =>
      Object.fromEntries(
        (await t.db.query('SELECT id, frame_width, frame_height FROM tasks WHERE id = ANY($1)', [[solo, pair]])).map(
          (row: { id: string; frame_width: number | null; frame_height: number | null }) => [row.id === solo ? 'solo' : 'pair', [row.frame_width, row.frame_height]],
        ),
      );
    // The completing submit stored each: the one submission's size, and the pair's first one's.
    expect(await frames()).toEqual({ solo: [1280, 960], pair: [640, 480] });
    const cocoImages = async () => {
      const coco = JSON.parse((await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations?format=coco`)).text);
      return Object.fromEntries(coco.images.map((i: { task_uuid: string; width: number; height: number }) => [i.task_uuid === solo ? 'solo' : 'pair', [i.width, i.height]]));
    };
    // COCO reads the stored frame (a changed one shows), not the submissions.
    await t.db.query('UPDATE tasks SET frame_width = 1000, frame_height = 750 WHERE id = $1', [solo]);
    expect(await cocoImages()).toEqual({ solo: [1000, 750], pair: [640, 480] });
    // A task completed before frames were stored: COCO looks its first submission up, and a reader that
    // computes its consensus stores the frame with it.
    await t.db.query('UPDATE tasks SET frame_width = NULL, frame_height = NULL, consensus = NULL, consensus_iou_threshold = NULL WHERE id = ANY($1)', [[solo, pair]]);
    expect(await frames()).toEqual({ solo: [null, null], pair: [null, null] });
    expect(await cocoImages()).toEqual({ solo: [1280, 960], pair: [640, 480] });
    await t.db.query('UPDATE tasks SET consensus = NULL, consensus_iou_threshold = NULL WHERE id = ANY($1)', [[solo, pair]]);
    expect((await get(r.liveKey, `/api/v1/tasks/${pair}/annotations`)).status).toBe(200);
    expect((await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations`)).status).toBe(200);
    expect(await frames()).toEqual({ solo: [1280, 960], pair: [640, 480] });
  });

  it('rounds a box scaled by an uneven ratio to whole pixels inside the frame', async () => {
    const r = await aRequester(t);
    const taskId = await aTask(t, r, { required_submissions: 2 });
    const [w1, w2] = [await signUp(t), await signUp(t)];
    await submitThroughWorkerApi(r, w1, [], { image_width: 1000, image_height: 750 });
    // Edges 590..640 x 440..480 of a 640x480 image: 921.875..1000 x 687.5..750 in the frame.
    await submitThroughWorkerApi(r, w2, [{ label: 'car', center_x: 615, center_y: 460, width: 50, height: 40 }], SMALL);
    const res = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations?view=submissions`);
    const inFrame = { label: 'car', center_x: 961, center_y: 719, width: 78, height: 63 };
    expect(res.body.data.annotations).toEqual([{ ...inFrame, support: 1, agreement: 1 }]);
    expect(res.body.data.submissions[1].annotations).toEqual([inFrame]);
  });

  it('keeps a box scaled down into a smaller frame at least 1 px wide and high, in every answer', async () => {
    const r = await aRequester(t);
    const taskId = await aTask(t, r, { required_submissions: 2 });
    const [w1, w2] = [await signUp(t), await signUp(t)];
    // The frame is 64x64; a 1 px box on the 4000 px copy is 0.016 px there (rounded alone: 0).
    await submitThroughWorkerApi(r, w1, [], { image_width: 64, image_height: 64 });
    await submitThroughWorkerApi(r, w2, [{ label: 'car', center_x: 2000, center_y: 2000, width: 1, height: 1 }], { image_width: 4000, image_height: 4000 });
    const inFrame = { label: 'car', center_x: 32, center_y: 32, width: 1, height: 1 };
    const one = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations?view=submissions`);
    expect(one.body.data.annotations).toEqual([{ ...inFrame, support: 1, agreement: 1 }]);
    expect(one.body.data.submissions[1].annotations).toEqual([inFrame]);
    const coco = JSON.parse((await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations?format=coco`)).text);
    expect(coco.annotations.map((a: { bbox: number[]; area: number }) => [a.bbox, a.area])).toEqual([[[31.5, 31.5, 1, 1], 1]]);
    const csv = (await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations?format=csv`)).text;
    expect(csv.split('\r\n')[1]).toContain(',64,64,car,31.5,31.5,32.5,32.5,1,1');
  });

  it('does not use a consensus stored by an older rule: a reader computes it in the frame and stores it with the current one', async () => {
    // What a process of the code before frames stores for a task of two sizes, during a deploy or before it.
    const r = await aRequester(t);
    const [w1, w2] = [await signUp(t), await signUp(t)];
    const taskId = await aTask(t, r);
    await submitInDb(t.db, { taskId, workerId: w1.userId, boxes: [CAR_1], size: [640, 480], submittedAt: '2024-05-01T10:00:01Z' });
    await submitInDb(t.db, { taskId, workerId: w2.userId, boxes: [doubled(CAR_2)], size: [1280, 960], submittedAt: '2024-05-01T10:00:02Z' });
    await completeInDb(t.db, taskId);
    const unscaled = JSON.stringify([{ ...doubled(CAR_2), support: 1, agreement: 1 }, { ...CAR_1, support: 1, agreement: 1 }]);
    await t.db.query(`UPDATE tasks SET consensus = $2::json, consensus_iou_threshold = 0.5, consensus_rule = 1 WHERE id = $1`, [taskId, unscaled]);

    const one = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`);
    expect(one.body.data.annotations).toEqual([{ label: 'car', center_x: 152, center_y: 100, width: 101, height: 102, support: 2, agreement: expect.any(Number) }]);
    const [row] = await t.db.query('SELECT consensus::text AS consensus, consensus_rule FROM tasks WHERE id = $1', [taskId]);
    expect(row).toEqual({ consensus: JSON.stringify(one.body.data.annotations), consensus_rule: CONSENSUS_RULE });

    // The older code again, after a threshold change: it stores its own consensus and leaves the rule as
    // it finds it (2). The write changes the threshold and not the rule, so the rule goes back to 1.
    await t.db.query(`UPDATE tasks t SET consensus = $2::json, consensus_iou_threshold = 0.75 WHERE t.id = $1
                        AND (t.consensus IS NULL OR t.consensus_iou_threshold IS DISTINCT FROM 0.75)`, [taskId, unscaled]);
    expect((await t.db.query('SELECT consensus_rule FROM tasks WHERE id = $1', [taskId]))[0].consensus_rule).toBe(1);
    const res = await t.request({ method: 'PATCH', url: `/api/console/projects/${r.projectUuid}`, headers: r.auth, body: { consensus_iou_threshold: 0.75 } });
    expect(res.status).toBe(200);
    const again = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`);
    expect(again.body.data.annotations).toEqual(one.body.data.annotations);
    // The reader's store keeps the threshold, so it keeps its rule, and the next read uses it as it is.
    expect((await t.db.query('SELECT consensus_rule FROM tasks WHERE id = $1', [taskId]))[0].consensus_rule).toBe(CONSENSUS_RULE);
  });
});
