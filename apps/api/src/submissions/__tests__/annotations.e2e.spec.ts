import { randomUUID } from 'node:crypto';
import { expectBusyPoolAnswers } from '../../../test/busy-pool';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { aRequester, aTask, signUp, type Requester, type SignedIn } from '../../../test/factories';
import { pgPool } from '../../database/prepared-statement';
import { AnnotationsService } from '../annotations.service';
import { EXPORT_BATCH } from '../completed-task-pages';
import { asFixture, completeInDb, submitInDb } from '../../../test/work-fixtures';
import { CAR_1, CAR_2, CAR_3, LONE_PERSON, MERGED_CAR, SHARED_PERSON, box, type Box } from '../../../test/consensus-fixtures';

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PSEUDONYM = /^worker_[0-9a-f]{12}$/;

describe('annotations (GET /api/v1/tasks/:uuid/annotations and /api/v1/projects/:uuid/annotations)', () => {
  let t: TestApp;
  let r: Requester;
  let w1: SignedIn;
  let w2: SignedIn;
  let w3: SignedIn;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
    w1 = await signUp(t);
    w2 = await signUp(t);
    w3 = await signUp(t);
  });
  afterAll(() => t.close());

  const get = (key: string, url: string) => t.request({ method: 'GET', url, headers: { apikey: key } });

  const newTask = (requester: Requester, fields: Record<string, unknown> = {}) =>
    aTask(t, requester, { external_image_url: 'https://images.example.com/street/1.jpg', ...fields });

  /** A worker's checkout and submission, written as the worker API would leave them. Returns the submission id. */
  const submit = async (
    taskId: string,
    worker: SignedIn,
    boxes: Box[],
    submittedAt: string,
    size: [number, number] = [640, 480],
  ): Promise<string> => {
    return submitInDb(t.db, { taskId, workerId: worker.userId, boxes, submittedAt, size, reward: 25 });
  };
  const complete = (taskId: string, completedAt = new Date().toISOString()) => completeInDb(t.db, taskId, completedAt);

  /** The standard complete task: three workers, one merged car, one kept person, one dropped person. */
  const standardTask = async (requester: Requester, completedAt: string, imageUrl = 'https://images.example.com/street/1.jpg') => {
    const taskId = await newTask(requester, { external_image_url: imageUrl });
    const ids = [
      await submit(taskId, w1, [CAR_1, LONE_PERSON], '2024-05-01T10:00:01.123456Z'),
      await submit(taskId, w2, [SHARED_PERSON, CAR_2], '2024-05-01T10:00:02.5Z'),
      await submit(taskId, w3, [CAR_3, SHARED_PERSON], '2024-05-01T10:00:03Z'),
    ];
    await complete(taskId, completedAt);
    return { taskId, submissionIds: ids };
  };

  describe('one task', () => {
    it('answers an incomplete task with no annotations', async () => {
      const taskId = await newTask(r);
      const res = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: { task_uuid: taskId, completed: false, completed_at: null, annotations: [] } });
      expect(Object.keys(res.body.data)).toEqual(['task_uuid', 'completed', 'completed_at', 'annotations']);

      const withSubs = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations?view=submissions`);
      expect(withSubs.status).toBe(200);
      expect(withSubs.body).toEqual({
        data: { task_uuid: taskId, completed: false, completed_at: null, annotations: [], submissions: [] },
      });
    });

    it('shows no consensus before completion, but lists what was submitted so far', async () => {
      const taskId = await newTask(r);
      const submissionId = await submit(taskId, w1, [CAR_1], '2024-05-02T08:00:00Z');
      const res = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations?view=submissions`);
      expect(res.body.data).toEqual({
        task_uuid: taskId,
        completed: false,
        completed_at: null,
        annotations: [],
        submissions: [{ submission_id: submissionId, worker: expect.stringMatching(PSEUDONYM), annotations: [CAR_1], submitted_at: '2024-05-02T08:00:00.000Z' }],
      });
    });

    it('answers the consensus of a complete task: merged boxes with support and agreement', async () => {
      const { taskId } = await standardTask(r, '2024-05-01T10:05:00.250Z');
      const res = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual(['task_uuid', 'completed', 'completed_at', 'annotations']);
      expect(res.body.data).toMatchObject({ task_uuid: taskId, completed: true, completed_at: '2024-05-01T10:05:00.250Z' });
      const [car, person, ...rest] = res.body.data.annotations;
      expect(rest).toEqual([]);
      expect(Object.keys(car)).toEqual(['label', 'center_x', 'center_y', 'width', 'height', 'support', 'agreement']);
      expect(car).toEqual({ ...MERGED_CAR, support: 3, agreement: expect.any(Number) });
      expect(car.agreement).toBeGreaterThan(0.8);
      expect(car.agreement).toBeLessThanOrEqual(1);
      expect(car.agreement).toBeCloseTo((0.907 + 0.943 + 0.89) / 3, 2);
      expect(person).toEqual({ ...SHARED_PERSON, support: 2, agreement: 1 });
      // The lone person (1 of 3 workers) is not in the consensus.
      expect(JSON.stringify(res.body.data.annotations)).not.toContain(String(LONE_PERSON.center_x));
    });

    it('with ?view=submissions lists every worker’s own boxes under a pseudonym, oldest first', async () => {
      const { taskId, submissionIds } = await standardTask(r, '2024-05-01T10:05:00Z');
      const res = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations?view=submissions`);
      expect(res.status).toBe(200);
      const { submissions, annotations } = res.body.data;
      expect(annotations).toHaveLength(2);
      expect(submissions).toEqual([
        { submission_id: submissionIds[0], worker: expect.stringMatching(PSEUDONYM), annotations: [CAR_1, LONE_PERSON], submitted_at: '2024-05-01T10:00:01.123Z' },
        { submission_id: submissionIds[1], worker: expect.stringMatching(PSEUDONYM), annotations: [SHARED_PERSON, CAR_2], submitted_at: '2024-05-01T10:00:02.500Z' },
        { submission_id: submissionIds[2], worker: expect.stringMatching(PSEUDONYM), annotations: [CAR_3, SHARED_PERSON], submitted_at: '2024-05-01T10:00:03.000Z' },
      ]);
      expect(Object.keys(submissions[0])).toEqual(['submission_id', 'worker', 'annotations', 'submitted_at']);
      expect(new Set(submissions.map((s: { worker: string }) => s.worker)).size).toBe(3);
      for (const w of [w1, w2, w3]) {
        expect(res.text).not.toContain(w.email);
        expect(res.text).not.toContain(w.userId);
      }
    });

    it('gives a worker the same pseudonym on every task of a project, and another one in another project', async () => {
      const a = await standardTask(r, '2024-05-01T11:00:00Z');
      const b = await standardTask(r, '2024-05-01T11:01:00Z');
      const workersOf = async (requester: Requester, taskId: string) =>
        (await get(requester.liveKey, `/api/v1/tasks/${taskId}/annotations?view=submissions`)).body.data.submissions.map(
          (s: { worker: string }) => s.worker,
        );
      const onA = await workersOf(r, a.taskId);
      const onB = await workersOf(r, b.taskId);
      expect(onB).toEqual(onA);

      const other = await aRequester(t);
      const c = await standardTask(other, '2024-05-01T11:02:00Z');
      const onC = await workersOf(other, c.taskId);
      expect(onC).toHaveLength(3);
      for (const name of onC) expect(onA).not.toContain(name);
    });

    it('refuses an unknown view with a 422 on view', async () => {
      const taskId = await newTask(r);
      const res = await get(r.liveKey, `/api/v1/tasks/${taskId}/annotations?view=bogus`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ field: 'view', detail: expect.stringContaining('submissions') }] });
    });

    it('answers worktask not found for another account’s task, a missing one and a malformed uuid', async () => {
      const other = await aRequester(t);
      const { taskId } = await standardTask(other, '2024-05-01T12:00:00Z');
      for (const uuid of [taskId, randomUUID(), 'not-a-uuid']) {
        const res = await get(r.liveKey, `/api/v1/tasks/${uuid}/annotations?view=submissions`);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'worktask not found' }] });
      }
    });
  });

  describe('a project', () => {
    it('answers {"data":[]} when no task is complete', async () => {
      const fresh = await aRequester(t);
      const url = `/api/v1/projects/${fresh.projectUuid}/annotations`;
      expect((await get(fresh.liveKey, url)).text).toBe('{"data":[]}');
      const open = await newTask(fresh);
      await submit(open, w1, [CAR_1], '2024-05-01T10:00:00Z');
      const res = await get(fresh.liveKey, url);
      expect(res.status).toBe(200);
      expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
      expect(res.text).toBe('{"data":[]}');
    });

    it('lists complete tasks only, oldest completion first', async () => {
      const p = await aRequester(t);
      const late = await standardTask(p, '2024-06-03T09:00:00.300Z', 'https://images.example.com/late.jpg');
      const early = await standardTask(p, '2024-06-01T09:00:00.100Z', 'https://images.example.com/early.jpg');
      const middle = await standardTask(p, '2024-06-02T09:00:00.200Z', 'https://images.example.com/middle.jpg');
      const empty = await newTask(p, { external_image_url: null, substitutions: { object: 'car' } });
      await submit(empty, w1, [], '2024-06-02T10:00:00Z');
      await complete(empty, '2024-06-02T12:00:00Z');
      const open = await newTask(p);
      await submit(open, w1, [CAR_1], '2024-06-01T10:00:00Z');
      const cancelled = await newTask(p);
      await t.db.query('UPDATE tasks SET cancelled_at = now() WHERE id = $1', [cancelled]);

      const res = await get(p.liveKey, `/api/v1/projects/${p.projectUuid}/annotations`);
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual(res.body);
      const consensus = [
        { ...MERGED_CAR, support: 3, agreement: expect.any(Number) },
        { ...SHARED_PERSON, support: 2, agreement: 1 },
      ];
      expect(res.body).toEqual({
        data: [
          { task_uuid: early.taskId, external_image_url: 'https://images.example.com/early.jpg', completed_at: '2024-06-01T09:00:00.100Z', annotations: consensus },
          { task_uuid: middle.taskId, external_image_url: 'https://images.example.com/middle.jpg', completed_at: '2024-06-02T09:00:00.200Z', annotations: consensus },
          { task_uuid: empty, external_image_url: null, completed_at: '2024-06-02T12:00:00.000Z', annotations: [] },
          { task_uuid: late.taskId, external_image_url: 'https://images.example.com/late.jpg', completed_at: '2024-06-03T09:00:00.300Z', annotations: consensus },
        ],
      });
      expect(Object.keys(res.body.data[0])).toEqual(['task_uuid', 'external_image_url', 'completed_at', 'annotations']);

      const withSubs = await get(p.liveKey, `/api/v1/projects/${p.projectUuid}/annotations?view=submissions`);
      expect(withSubs.status).toBe(200);
      expect(withSubs.body.data.map((e: { task_uuid: string }) => e.task_uuid)).toEqual([early.taskId, middle.taskId, empty, late.taskId]);
      expect(withSubs.body.data[0].submissions.map((s: { submission_id: string }) => s.submission_id)).toEqual(early.submissionIds);
      expect(withSubs.body.data[2].submissions).toEqual([
        { submission_id: expect.any(String), worker: expect.stringMatching(PSEUDONYM), annotations: [], submitted_at: '2024-06-02T10:00:00.000Z' },
      ]);
    });

    it('refuses an unknown format or view with a 422 naming it', async () => {
      const xml = await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations?format=xml`);
      expect(xml.status).toBe(422);
      expect(xml.body).toEqual({ errors: [{ field: 'format', detail: expect.stringContaining('coco') }] });
      const view = await get(r.liveKey, `/api/v1/projects/${r.projectUuid}/annotations?view=bogus`);
      expect(view.status).toBe(422);
      expect(view.body.errors).toEqual([{ field: 'view', detail: expect.any(String) }]);
    });

    it('answers project not found for another account’s project, a missing one and a malformed uuid', async () => {
      const other = await aRequester(t);
      await standardTask(other, '2024-05-01T12:00:00Z');
      for (const uuid of [other.projectUuid, randomUUID(), 'not-a-uuid']) {
        for (const query of ['', '?format=coco']) {
          const res = await get(r.liveKey, `/api/v1/projects/${uuid}/annotations${query}`);
          expect(res.status).toBe(422);
          expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'project not found' }] });
        }
      }
    });

    it('exports COCO: categories per label, image sizes from the submissions, bbox from the top-left corner', async () => {
      const p = await aRequester(t);
      const first = await standardTask(p, '2024-07-01T00:00:00Z', 'https://images.example.com/a.jpg');
      const noBoxes = await newTask(p, { external_image_url: 'https://images.example.com/b.jpg' });
      await submit(noBoxes, w1, [], '2024-07-01T00:00:00Z', [1024, 768]);
      await complete(noBoxes, '2024-07-02T00:00:00Z');
      const third = await newTask(p, { external_image_url: 'https://images.example.com/c.jpg' });
      await submit(third, w2, [box('person', 10, 20, 50, 100)], '2024-07-01T00:00:00Z', [320, 240]);
      await complete(third, '2024-07-03T00:00:00Z');

      const res = await get(p.liveKey, `/api/v1/projects/${p.projectUuid}/annotations?format=coco`);
      expect(res.status).toBe(200);
      const coco = JSON.parse(res.text);
      expect(Object.keys(coco)).toEqual(['info', 'licenses', 'images', 'annotations', 'categories']);
      expect(coco.info).toEqual(expect.objectContaining({ description: expect.any(String) }));
      expect(coco.licenses).toEqual([]);
      expect(coco.categories).toEqual([
        { id: expect.any(Number), name: 'car', supercategory: expect.any(String) },
        { id: expect.any(Number), name: 'person', supercategory: expect.any(String) },
      ]);
      const categoryId = (name: string) => coco.categories.find((c: { name: string }) => c.name === name).id;
      expect(categoryId('car')).not.toBe(categoryId('person'));

      expect(coco.images).toEqual([
        expect.objectContaining({ file_name: 'https://images.example.com/a.jpg', width: 640, height: 480 }),
        expect.objectContaining({ file_name: 'https://images.example.com/b.jpg', width: 1024, height: 768 }),
        expect.objectContaining({ file_name: 'https://images.example.com/c.jpg', width: 320, height: 240 }),
      ]);
      const imageIds = coco.images.map((i: { id: number }) => i.id);
      expect(new Set(imageIds).size).toBe(3);
      expect(coco.images.map((i: { task_uuid: string }) => i.task_uuid)).toEqual([first.taskId, noBoxes, third]);

      const annotations = coco.annotations.map((a: { image_id: number; category_id: number; bbox: number[] }) => ({
        image_id: a.image_id,
        category_id: a.category_id,
        bbox: a.bbox,
      }));
      expect(annotations).toEqual([
        { image_id: imageIds[0], category_id: categoryId('car'), bbox: [101, 50, 100, 102] },
        { image_id: imageIds[0], category_id: categoryId('person'), bbox: [280, 160, 40, 80] },
        { image_id: imageIds[2], category_id: categoryId('person'), bbox: [10, 20, 40, 80] },
      ]);
      expect(new Set(coco.annotations.map((a: { id: number }) => a.id)).size).toBe(3);
      expect(coco.annotations[0].area).toBe(100 * 102);

      const none = await aRequester(t);
      const empty = await get(none.liveKey, `/api/v1/projects/${none.projectUuid}/annotations?format=coco`);
      expect(empty.status).toBe(200);
      expect(JSON.parse(empty.text)).toMatchObject({ images: [], annotations: [], categories: [{ name: 'car' }, { name: 'person' }] });
    });

    it('exports COCO with a task completed between the images and the annotations shifting no image_id: it waits for the next export', async () => {
      const p = await aRequester(t);
      const early = await newTask(p, { external_image_url: 'https://images.example.com/early.jpg' });
      await submit(early, w1, [box('car', 10, 10, 30, 30)], '2024-08-01T00:00:00Z');
      await complete(early, '2024-08-01T00:00:00Z');
      const late = await newTask(p, { external_image_url: 'https://images.example.com/late.jpg' });
      await submit(late, w1, [box('person', 40, 40, 60, 60)], '2024-08-03T00:00:00Z');
      await complete(late, '2024-08-03T00:00:00Z');
      // Completed between the passes, and older than `late`: read by the second pass, it would take late's place.
      const between = await newTask(p, { external_image_url: 'https://images.example.com/between.jpg' });
      await submit(between, w2, [box('car', 100, 100, 120, 120)], '2024-08-02T00:00:00Z');

      const principal = { keyId: randomUUID(), accountId: p.accountId, mode: 'live' as const };
      const chunks = await t.app.get(AnnotationsService).projectAnnotations(principal, p.projectUuid, false, 'coco');
      let text = '';
      for await (const chunk of chunks) {
        text += chunk;
        if (chunk.startsWith('],"annotations":[')) await complete(between, '2024-08-02T00:00:00Z');
      }
      const coco = JSON.parse(text);
      expect(coco.images.map((i: { task_uuid: string }) => i.task_uuid)).toEqual([early, late]);
      const taskOf = new Map(coco.images.map((i: { id: number; task_uuid: string }) => [i.id, i.task_uuid]));
      const byTask = coco.annotations.map((a: { image_id: number; bbox: number[] }) => [taskOf.get(a.image_id), a.bbox]);
      expect(byTask).toEqual([
        [early, [10, 10, 20, 20]],
        [late, [40, 40, 20, 20]],
      ]);
      // The next export has all three.
      const after = JSON.parse((await get(p.liveKey, `/api/v1/projects/${p.projectUuid}/annotations?format=coco`)).text);
      expect(after.images.map((i: { task_uuid: string }) => i.task_uuid)).toEqual([early, between, late]);
    });

    it('keeps a category for a label the project no longer has, so every box’s category_id is in the file', async () => {
      const p = await aRequester(t);
      const taskId = await newTask(p);
      await submit(taskId, w1, [box('car', 10, 10, 30, 30), box('person', 40, 40, 60, 60)], '2024-09-01T00:00:00Z');
      await complete(taskId, '2024-09-01T00:00:00Z');
      const relabel = async (labels: string[]) =>
        expect((await t.request({ method: 'PATCH', url: `/api/console/projects/${p.projectUuid}`, headers: p.auth, body: { labels } })).status).toBe(200);
      const coco = async () => JSON.parse((await get(p.liveKey, `/api/v1/projects/${p.projectUuid}/annotations?format=coco`)).text);

      await relabel(['vehicle', 'person']);
      let file = await coco();
      expect(file.categories.map((c: { id: number; name: string }) => [c.id, c.name])).toEqual([
        [1, 'vehicle'],
        [2, 'person'],
        [3, 'car'],
      ]);
      expect(file.annotations.map((a: { category_id: number }) => a.category_id)).toEqual([3, 2]);

      // Brought back, a label is current again, in the place the requester gives it.
      await relabel(['car', 'person']);
      file = await coco();
      expect(file.categories.map((c: { name: string }) => c.name)).toEqual(['car', 'person', 'vehicle']);
      expect(file.annotations.map((a: { category_id: number }) => a.category_id)).toEqual([1, 2]);
    });

    it('answers a test key’s ?format=coco with a deterministic COCO file of the fake data', async () => {
      const url = `/api/v1/projects/${r.projectUuid}/annotations`;
      const fakeJson = await get(r.testKey, url);
      expect(fakeJson.status).toBe(200);
      expect(fakeJson.body.data.length).toBeGreaterThan(0);

      const res = await get(r.testKey, `${url}?format=coco`);
      expect(res.status).toBe(200);
      const coco = JSON.parse(res.text);
      expect(Object.keys(coco)).toEqual(['info', 'licenses', 'images', 'annotations', 'categories']);
      expect(coco.images.map((i: { task_uuid: string }) => i.task_uuid)).toEqual(fakeJson.body.data.map((e: { task_uuid: string }) => e.task_uuid));
      const categoryIds = new Set(coco.categories.map((c: { id: number }) => c.id));
      const imageIds = new Set(coco.images.map((i: { id: number }) => i.id));
      const boxCount = fakeJson.body.data.reduce((n: number, e: { annotations: unknown[] }) => n + e.annotations.length, 0);
      expect(coco.annotations).toHaveLength(boxCount);
      for (const a of coco.annotations) {
        expect(categoryIds.has(a.category_id)).toBe(true);
        expect(imageIds.has(a.image_id)).toBe(true);
        expect(a.bbox).toHaveLength(4);
      }
      // The same boxes and numbers as the JSON answer, in its order: support and agreement included (they
      // read 1 and 1 for every box when each entry went through the consensus as one worker's boxes).
      const nameOf = new Map(coco.categories.map((c: { id: number; name: string }) => [c.id, c.name]));
      const fromJson = fakeJson.body.data.flatMap((e: { annotations: Array<{ label: string; center_x: number; center_y: number; width: number; height: number; support: number; agreement: number }> }) =>
        e.annotations.map((b) => [b.label, [b.center_x - b.width / 2, b.center_y - b.height / 2, b.width, b.height], b.support, b.agreement]),
      );
      expect(coco.annotations.map((a: { category_id: number; bbox: number[]; support: number; agreement: number }) => [nameOf.get(a.category_id), a.bbox, a.support, a.agreement])).toEqual(fromJson);
      expect(fromJson.some(([, , support]: [string, number[], number]) => support > 1)).toBe(true);
      // Same request, same answer; nothing real is read.
      expect((await get(r.testKey, `${url}?format=coco`)).text).toBe(res.text);
    });

    describe(`more complete tasks than one export batch (${EXPORT_BATCH})`, () => {
      const N = 1205;
      let big: Requester;
      /** The box worker 1 drew on task number g (so every task's consensus is that one box). */
      const boxOf = (g: number): Box => ({ label: 'car', center_x: 100 + (g % 50) * 2, center_y: 200 + (g % 7) * 2, width: 40 + 2 * (g % 11), height: 30 + 2 * (g % 13) });
      const gOf = (url: string) => Number(/\/(\d+)\.jpg$/.exec(url)?.[1]);
      // Completion times in groups of three equal timestamps (microsecond steps), in reverse order of g,
      // so that one group straddles the batch boundary and the order is not the insertion order.
      const stepOf = (g: number) => Math.floor((N + 96 - g) / 3);

      beforeAll(async () => {
        expect(N).toBeGreaterThan(EXPORT_BATCH);
        big = await aRequester(t);
        await t.db.query(
          `INSERT INTO tasks (id, project_id, prompt, substitutions, external_image_url, reward, required_submissions,
                              allowed_completion_time_seconds, submission_count, completed_at)
           SELECT gen_random_uuid(), $1, '<p>car</p>', jsonb_build_object('g', g), 'https://images.example.com/big/' || g || '.jpg',
                  5, 1, 600, 1, timestamptz '2024-03-01T00:00:00Z' + ((($2::int + 96 - g) / 3) * interval '1 microsecond')
             FROM generate_series(1, $2::int) AS g`,
          [big.projectUuid, N],
        );
        await asFixture(t.db, async (tx) => {
        await tx.query(
          `INSERT INTO checkouts (id, task_id, worker_id, checked_out_at, expires_at, state)
           SELECT gen_random_uuid(), t.id, $2, now(), now() + interval '10 minutes', 'submitted' FROM tasks t WHERE t.project_id = $1`,
          [big.projectUuid, w1.userId],
        );
        await tx.query(
          `INSERT INTO submissions (id, checkout_id, task_id, worker_id, boxes, image_width, image_height, reward, request_hash)
           SELECT gen_random_uuid(), c.id, c.task_id, c.worker_id,
                  jsonb_build_array(jsonb_build_object(
                    'label', 'car',
                    'center_x', 100 + ((t.substitutions->>'g')::int % 50) * 2,
                    'center_y', 200 + ((t.substitutions->>'g')::int % 7) * 2,
                    'width', 40 + 2 * ((t.substitutions->>'g')::int % 11),
                    'height', 30 + 2 * ((t.substitutions->>'g')::int % 13))),
                  800, 600, 5, 'fixture'
             FROM checkouts c JOIN tasks t ON t.id = c.task_id WHERE t.project_id = $1`,
          [big.projectUuid],
        );
        });
      });

      it('returns every complete task exactly once, in completion order, as valid JSON', async () => {
        const res = await get(big.liveKey, `/api/v1/projects/${big.projectUuid}/annotations`);
        expect(res.status).toBe(200);
        const body = JSON.parse(res.text);
        const entries: Array<{ task_uuid: string; external_image_url: string; completed_at: string; annotations: unknown[] }> = body.data;
        expect(entries).toHaveLength(N);
        for (const e of entries) expect(e.completed_at).toMatch(ISO_MS);
        expect(new Set(entries.map((e) => e.task_uuid)).size).toBe(N);
        const gs = entries.map((e) => gOf(e.external_image_url));
        expect([...gs].sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, i) => i + 1));
        for (let i = 1; i < N; i++) {
          const [prev, cur] = [stepOf(gs[i - 1]), stepOf(gs[i])];
          expect(cur).toBeGreaterThanOrEqual(prev);
          // Equal completion times: ordered by task uuid.
          if (cur === prev) expect(entries[i].task_uuid > entries[i - 1].task_uuid).toBe(true);
        }
        for (const [i, e] of entries.entries()) {
          expect(e.annotations).toEqual([{ ...boxOf(gs[i]), support: 1, agreement: 1 }]);
        }
        const [{ count }] = await t.db.query('SELECT count(*)::int AS count FROM tasks WHERE project_id = $1 AND completed_at IS NOT NULL', [big.projectUuid]);
        expect(count).toBe(N);
      });

      it('exports them all to COCO with image ids that match their boxes', async () => {
        const res = await get(big.liveKey, `/api/v1/projects/${big.projectUuid}/annotations?format=coco`);
        expect(res.status).toBe(200);
        const coco = JSON.parse(res.text);
        expect(coco.images).toHaveLength(N);
        expect(coco.annotations).toHaveLength(N);
        expect(new Set(coco.images.map((i: { id: number }) => i.id)).size).toBe(N);
        expect(new Set(coco.annotations.map((a: { id: number }) => a.id)).size).toBe(N);
        const imageById = new Map<number, { file_name: string; width: number; height: number }>(
          coco.images.map((i: { id: number; file_name: string; width: number; height: number }) => [i.id, i]),
        );
        const carId = coco.categories.find((c: { name: string }) => c.name === 'car').id;
        for (const a of coco.annotations as Array<{ image_id: number; category_id: number; bbox: number[] }>) {
          const image = imageById.get(a.image_id);
          expect(image).toBeDefined();
          expect(image).toMatchObject({ width: 800, height: 600 });
          const b = boxOf(gOf(image?.file_name ?? ''));
          expect(a.category_id).toBe(carId);
          expect(a.bbox).toEqual([b.center_x - b.width / 2, b.center_y - b.height / 2, b.width, b.height]);
        }
      });
    });
  });
});

describe('a COCO export when no other database connection is free', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: '2', DATABASE_CONNECT_TIMEOUT_MS: '3000' });
  });
  afterAll(() => t.close());

  it('exports and stores the consensus it computed with a single free connection', async () => {
    const p = await aRequester(t);
    const w = await signUp(t);
    const taskId = await aTask(t, p);
    await submitInDb(t.db, { taskId, workerId: w.userId, boxes: [box('car', 10, 10, 30, 30)], submittedAt: '2024-10-01T00:00:00Z', size: [640, 480], reward: 25 });
    await completeInDb(t.db, taskId, '2024-10-01T00:00:00Z');
    // Nothing stored yet: the export computes this task's consensus and stores it back.
    await t.db.query('UPDATE tasks SET consensus = NULL, consensus_iou_threshold = NULL WHERE id = $1', [taskId]);

    // The other connection of the pool of two is busy for the whole export.
    const busy = await pgPool(t.db).connect();
    let text = '';
    try {
      const principal = { keyId: randomUUID(), accountId: p.accountId, mode: 'live' as const };
      for await (const chunk of await t.app.get(AnnotationsService).projectAnnotations(principal, p.projectUuid, false, 'coco')) text += chunk;
    } finally {
      busy.release();
    }
    expect(JSON.parse(text).annotations).toHaveLength(1);
    const [row] = await t.db.query('SELECT consensus IS NOT NULL AS stored FROM tasks WHERE id = $1', [taskId]);
    expect(row.stored).toBe(true);
  });
});

describe('an export whose first query finds no database connection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: '2', DATABASE_CONNECT_TIMEOUT_MS: '300' });
  });
  afterAll(() => t.close());

  it('answers 503 in the contract shape, not a 200 cut after its first bytes, for every format and the console', async () => {
    const p = await aRequester(t);
    const exports = [
      { url: `/api/v1/projects/${p.projectUuid}/annotations`, headers: { apikey: p.liveKey } },
      { url: `/api/v1/projects/${p.projectUuid}/annotations?format=coco`, headers: { apikey: p.liveKey } },
      { url: `/api/v1/projects/${p.projectUuid}/annotations?view=submissions`, headers: { apikey: p.liveKey } },
      { url: `/api/console/projects/${p.projectUuid}/results`, headers: p.auth },
    ];
    // Once each first, so the project is in the cache and only the export's own query needs the pool.
    for (const e of exports) expect((await t.request({ method: 'GET', ...e })).status).toBe(200);

    await expectBusyPoolAnswers(t, exports);
    const after = await t.request({ method: 'GET', ...exports[1] });
    expect(after.status).toBe(200);
    expect(JSON.parse(after.text)).toMatchObject({ images: [], annotations: [] });
  });
});
