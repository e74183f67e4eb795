import { parse } from 'csv-parse/sync';
import { expectBusyPoolAnswers } from '../../../test/busy-pool';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { aCompletedTask, aRequester, aTask, signUp, type Requester } from '../../../test/factories';

const HEADER = ['task_uuid', 'external_image_url', 'completed_at', 'image_width', 'image_height', 'label', 'x_min', 'y_min', 'x_max', 'y_max', 'support', 'agreement'];
/** A label and an image URL that a CSV writer must quote (a comma, a quote; the label a newline too). */
const ODD_LABEL = 'car, "big"\nlot';
const ODD_URL = 'https://img.example.com/scene,1.jpg?q="a"';
/** A line break alone must be quoted too, though the records end in CRLF. */
const TWO_LINES = 'traffic\nlight';

interface CocoFile {
  images: Array<{ id: number; task_uuid: string; width: number; height: number }>;
  annotations: Array<{ image_id: number; bbox: number[]; support: number; agreement: number }>;
}

/**
 * `?format=csv` (docs/decisions.md, "CSV export"): one record per consensus box of each complete task,
 * in the frame and with the corners of the COCO export, read here with csv-parse as a spreadsheet would.
 */
describe('the CSV export of a project', () => {
  let t: TestApp;
  let r: Requester;
  const get = (key: string, url: string) => t.request({ method: 'GET', url, headers: { apikey: key } });
  const csvOf = (text: string): string[][] => parse(text);
  const exportUrl = () => `/api/v1/projects/${r.projectUuid}/annotations`;

  /** A task of one submission, completed now by a new worker who drew `annotations` on a `width` x `height` image. */
  const completed = async (fields: Record<string, unknown>, annotations: object[], width = 640, height = 480) =>
    aCompletedTask(t, r, await signUp(t), fields, { annotations, image_width: width, image_height: height });

  /** The CSV's records built from the JSON export's entries and the COCO export's frames and bboxes, for the same tasks. */
  const expectedFromJsonAndCoco = async (): Promise<string[][]> => {
    const json = (await get(r.liveKey, exportUrl())).body.data;
    const coco: CocoFile = JSON.parse((await get(r.liveKey, `${exportUrl()}?format=coco`)).text);
    const records: string[][] = [];
    for (const entry of json) {
      const image = coco.images.find((i) => i.task_uuid === entry.task_uuid);
      if (!image) throw new Error(`no COCO image for ${entry.task_uuid}`);
      const head = [entry.task_uuid, entry.external_image_url ?? '', entry.completed_at, String(image.width), String(image.height)];
      const boxes = coco.annotations.filter((a) => a.image_id === image.id);
      expect(boxes).toHaveLength(entry.annotations.length);
      if (boxes.length === 0) records.push([...head, '', '', '', '', '', '', '']);
      boxes.forEach(({ bbox: [x, y, w, h], support, agreement }, i) =>
        records.push([...head, entry.annotations[i].label, x, y, x + w, y + h, support, agreement].map(String)),
      );
    }
    return records;
  };

  let withBoxes: string;
  let empty: string;
  let large: string;
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t, { labels: ['car', ODD_LABEL, TWO_LINES] });
    withBoxes = await completed({ external_image_url: ODD_URL }, [
      { label: 'car', center_x: 100, center_y: 80, width: 40, height: 30 },
      { label: ODD_LABEL, center_x: 300, center_y: 200, width: 50, height: 60 },
    ]);
    empty = await completed({}, [], 800, 600);
    // Odd sizes put the corners on half pixels; another frame than the others.
    large = await completed(
      { external_image_url: 'https://img.example.com/large.jpg' },
      [
        { label: 'car', center_x: 640, center_y: 480, width: 101, height: 51 },
        { label: TWO_LINES, center_x: 20, center_y: 30, width: 10, height: 20 },
      ],
      1280,
      960,
    );
    // Not complete: not exported.
    await aTask(t, r, { required_submissions: 1 });
  });
  afterAll(() => t.close());

  it('writes a header and one record per box, a task without boxes as one record with the box columns empty', async () => {
    const res = await get(r.liveKey, `${exportUrl()}?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...records] = csvOf(res.text);
    expect(header).toEqual(HEADER);
    const json = (await get(r.liveKey, exportUrl())).body.data;
    const completedAt = (id: string) => json.find((e: { task_uuid: string }) => e.task_uuid === id).completed_at;
    expect(completedAt(withBoxes)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(records).toEqual([
      [withBoxes, ODD_URL, completedAt(withBoxes), '640', '480', 'car', '80', '65', '120', '95', '1', '1'],
      [withBoxes, ODD_URL, completedAt(withBoxes), '640', '480', ODD_LABEL, '275', '170', '325', '230', '1', '1'],
      [empty, '', completedAt(empty), '800', '600', '', '', '', '', '', '', ''],
      [large, 'https://img.example.com/large.jpg', completedAt(large), '1280', '960', 'car', '589.5', '454.5', '690.5', '505.5', '1', '1'],
      [large, 'https://img.example.com/large.jpg', completedAt(large), '1280', '960', TWO_LINES, '15', '20', '25', '40', '1', '1'],
    ]);
    // RFC 4180 on the wire: CRLF between records, fields with a comma, quote or line break quoted, quotes doubled.
    expect(res.text.startsWith(`${HEADER.join(',')}\r\n`)).toBe(true);
    expect(res.text).toContain(`,"${ODD_URL.replace(/"/g, '""')}",`);
    expect(res.text).toContain(`,"${ODD_LABEL.replace(/"/g, '""')}",`);
    expect(res.text).toContain(`,"${TWO_LINES}",`);
  });

  it('gives each task the COCO export’s frame and each box the corners of its COCO bbox, in the JSON export’s order', async () => {
    const [, ...records] = csvOf((await get(r.liveKey, `${exportUrl()}?format=csv`)).text);
    expect(records).toEqual(await expectedFromJsonAndCoco());
  });

  it('computes a consensus that was not stored (or lacks its frame), answers it and stores it back', async () => {
    const before = (await get(r.liveKey, `${exportUrl()}?format=csv`)).text;
    await t.db.query(
      'UPDATE tasks SET consensus = NULL, consensus_iou_threshold = NULL, frame_width = NULL, frame_height = NULL WHERE id = ANY($1)',
      [[withBoxes, large]],
    );
    expect((await get(r.liveKey, `${exportUrl()}?format=csv`)).text).toBe(before);
    const rows = await t.db.query('SELECT id, consensus IS NOT NULL AS stored, frame_width, frame_height FROM tasks WHERE id = ANY($1) ORDER BY frame_width', [[withBoxes, large]]);
    expect(rows).toEqual([
      { id: withBoxes, stored: true, frame_width: 640, frame_height: 480 },
      { id: large, stored: true, frame_width: 1280, frame_height: 960 },
    ]);
    expect((await get(r.liveKey, `${exportUrl()}?format=csv`)).text).toBe(before);
  });

  it('answers a test key with the deterministic fake entries as CSV', async () => {
    const fake = (await get(r.testKey, exportUrl())).body.data;
    expect(fake.length).toBeGreaterThan(0);
    const res = await get(r.testKey, `${exportUrl()}?format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, ...records] = csvOf(res.text);
    expect(header).toEqual(HEADER);
    const expected = fake.flatMap((e: { task_uuid: string; external_image_url: string | null; completed_at: string; annotations: Array<Record<string, number | string>> }) => {
      const head = [e.task_uuid, e.external_image_url ?? '', e.completed_at, '1280', '960'];
      if (e.annotations.length === 0) return [[...head, '', '', '', '', '', '', '']];
      return e.annotations.map((a) => {
        const [cx, cy, w, h] = [a.center_x, a.center_y, a.width, a.height] as number[];
        return [...head, a.label, cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, a.support, a.agreement].map(String);
      });
    });
    expect(records).toEqual(expected);
    // Same request, same answer; nothing real is read.
    expect((await get(r.testKey, `${exportUrl()}?format=csv`)).text).toBe(res.text);
    expect(res.text).not.toContain(withBoxes);
  });

  it('downloads the same CSV from the console, as crowdbox-<uuid>.csv', async () => {
    const res = await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/results?format=csv`, headers: r.auth });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="crowdbox-${r.projectUuid}.csv"`);
    expect(res.text).toBe((await get(r.liveKey, `${exportUrl()}?format=csv`)).text);
  });

  it('answers any other format with a 422 on format that lists csv', async () => {
    const error = { errors: [{ field: 'format', detail: 'must be "json", "coco" or "csv"' }] };
    for (const format of ['xml', 'CSV', 'tsv']) {
      const v1 = await get(r.liveKey, `${exportUrl()}?format=${format}`);
      expect({ format, status: v1.status, body: v1.body }).toEqual({ format, status: 422, body: error });
      const console = await t.request({ method: 'GET', url: `/api/console/projects/${r.projectUuid}/results?format=${format}`, headers: r.auth });
      expect({ format, status: console.status, body: console.body }).toEqual({ format, status: 422, body: error });
    }
  });

  it('lists csv in the OpenAPI format enum of both exports', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/docs/openapi.json' })).body;
    const formatEnum = (path: string) => doc.paths[path].get.parameters.find((p: { name: string }) => p.name === 'format').schema.enum;
    expect(formatEnum('/api/v1/projects/{uuid}/annotations')).toEqual(['json', 'coco', 'csv']);
    expect(formatEnum('/api/console/projects/{uuid}/results')).toEqual(['json', 'coco', 'csv']);
  });
});

describe('a CSV export whose first query finds no database connection', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ DATABASE_POOL_SIZE: '2', DATABASE_CONNECT_TIMEOUT_MS: '300' });
  });
  afterAll(() => t.close());

  it('answers 503 with Retry-After in the contract shape, not a 200 cut after its header', async () => {
    const p = await aRequester(t);
    const exports = [
      { url: `/api/v1/projects/${p.projectUuid}/annotations?format=csv`, headers: { apikey: p.liveKey } },
      { url: `/api/console/projects/${p.projectUuid}/results?format=csv`, headers: p.auth },
    ];
    // Once each first, so the project is in the cache and only the export's own query needs the pool.
    for (const e of exports) expect((await t.request({ method: 'GET', ...e })).text).toBe(`${HEADER.join(',')}\r\n`);

    await expectBusyPoolAnswers(t, exports);
  });
});
