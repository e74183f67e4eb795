import { UNSTORABLE_TEXT_DETAIL } from '@crowdbox/contracts';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { DEFAULT_PROJECT, aRequester, aTask, addTask, createProject, signUp, type Requester, type SignedIn } from '../../../test/factories';
import { tableReads, tableScans } from '../../../test/query-plan';
import { leaseInDb, submitInDb, type LeaseFixture } from '../../../test/work-fixtures';
import { PROJECT_STATS_SQL } from '../project-stats';

const PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_UUID = '00000000-0000-4000-8000-000000000000';

describe('projects (/api/console/projects and GET /api/v1/projects/:uuid)', () => {
  let t: TestApp;
  let owner: SignedIn;
  beforeAll(async () => {
    t = await startTestApp();
    owner = await signUp(t);
  });
  afterAll(() => t.close());

  const projectCount = async () => Number((await t.db.query('SELECT count(*) FROM projects'))[0].count);
  const consoleApi = (method: 'GET' | 'POST' | 'PATCH', url: string, who: SignedIn, body?: unknown) =>
    t.request({ method, url: `/api/console/projects${url}`, headers: who.auth, body });
  const v1Project = (key: string, uuid: string) => t.request({ method: 'GET', url: `/api/v1/projects/${uuid}`, headers: { apikey: key } });

  describe('console: create', () => {
    it('answers 201 with every ConsoleProjectResponse field and stores the row', async () => {
      const res = await consoleApi('POST', '', owner, {
        ...DEFAULT_PROJECT,
        image_variable: 'picture',
        consensus_iou_threshold: 0.6,
      });
      expect(res.status).toBe(201);
      const p = res.body.data;
      expect(Object.keys(p).sort()).toEqual(
        [
          'uuid',
          'name',
          'display_name',
          'display_short_description',
          'default_required_submissions',
          'default_reward',
          'allowed_completion_time_seconds',
          'has_published_tasks',
          'available_task_count',
          'average_outstanding_task_reward_cents',
          'lifetime_payments_to_workers_cents',
          'template',
          'variables',
          'labels',
          'image_variable',
          'consensus_iou_threshold',
          'created_at',
          'updated_at',
          'archived_at',
        ].sort(),
      );
      expect(p).toEqual({
        uuid: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/),
        name: 'street-scenes',
        display_name: 'Find the cars',
        display_short_description: 'Draw a box around every car.',
        default_required_submissions: 3,
        default_reward: 25,
        allowed_completion_time_seconds: 600,
        has_published_tasks: false,
        available_task_count: 0,
        average_outstanding_task_reward_cents: 0,
        lifetime_payments_to_workers_cents: 0,
        template: '<p>Draw a box around every [[object]] in <b>[[place]]</b>.</p>',
        variables: { object: null, place: 'the picture' },
        labels: [
          { name: 'car', color: PALETTE[0] },
          { name: 'person', color: PALETTE[1] },
        ],
        image_variable: 'picture',
        consensus_iou_threshold: 0.6,
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
        archived_at: null,
      });
      const [row] = await t.db.query('SELECT account_id, name, default_reward, image_variable FROM projects WHERE id = $1', [p.uuid]);
      expect(row).toEqual({ account_id: owner.accountId, name: 'street-scenes', default_reward: 25, image_variable: 'picture' });

      const got = await consoleApi('GET', `/${p.uuid}`, owner);
      expect(got.status).toBe(200);
      expect(got.body.data).toEqual(p);
    });

    it('gives labels given as strings distinct colours and keeps the colours given', async () => {
      const names = ['car', 'bus', 'truck', 'bike', 'person', 'dog', 'cat', 'sign', 'light', 'tree'];
      const plain = await createProject(t, owner, { labels: names });
      expect(plain.labels.map((l: { name: string }) => l.name)).toEqual(names);
      const colours = plain.labels.map((l: { color: string }) => l.color);
      expect(new Set(colours).size).toBe(names.length);
      for (const c of colours) expect(c).toMatch(/^#[0-9a-f]{6}$/);

      const given = await createProject(t, owner, {
        labels: [{ name: 'car', color: '#123abc' }, { name: 'person', color: '#00ff00' }, 'bus'],
      });
      expect(given.labels).toEqual([
        { name: 'car', color: '#123abc' },
        { name: 'person', color: '#00ff00' },
        { name: 'bus', color: expect.stringMatching(/^#[0-9a-f]{6}$/) },
      ]);
      const [row] = await t.db.query('SELECT labels FROM projects WHERE id = $1', [given.uuid]);
      expect(row.labels.slice(0, 2)).toEqual([
        { name: 'car', color: '#123abc' },
        { name: 'person', color: '#00ff00' },
      ]);
    });

    describe('with an Idempotency-Key', () => {
      const create = (key: string, body: unknown, who = owner) =>
        t.request({ method: 'POST', url: '/api/console/projects', headers: { ...who.auth, 'idempotency-key': key }, body });

      it('makes one project for a key and body, and answers a repeat with it, byte for byte', async () => {
        const key = `form-${Math.random()}`;
        const before = await projectCount();
        const first = await create(key, { ...DEFAULT_PROJECT, name: 'once' });
        expect(first.status).toBe(201);
        // Key order does not matter (the body is hashed in canonical form).
        const { name: _name, ...rest } = DEFAULT_PROJECT;
        const again = await create(key, { name: 'once', ...rest });
        expect({ status: again.status, text: again.text }).toEqual({ status: 201, text: first.text });
        expect(await projectCount()).toBe(before + 1);
      });

      it('makes one project when the same request comes twice at once', async () => {
        const key = `form-${Math.random()}`;
        const before = await projectCount();
        const [a, b] = await Promise.all([create(key, DEFAULT_PROJECT), create(key, DEFAULT_PROJECT)]);
        expect([a.status, b.status]).toEqual([201, 201]);
        expect(b.body.data.uuid).toBe(a.body.data.uuid);
        expect(await projectCount()).toBe(before + 1);
      });

      it('refuses the key with another body, or one used by add_task, or too long: 422 on Idempotency-Key, nothing made', async () => {
        const key = `form-${Math.random()}`;
        expect((await create(key, { ...DEFAULT_PROJECT, name: 'first' })).status).toBe(201);
        const requester = await aRequester(t);
        const taskKey = `task-${Math.random()}`;
        expect((await addTask(t, requester.liveKey, { project_uuid: requester.projectUuid, substitutions: { object: 'car' } }, { 'idempotency-key': taskKey })).status).toBe(201);
        const before = await projectCount();
        const other = await create(key, { ...DEFAULT_PROJECT, name: 'second' });
        expect(other.status).toBe(422);
        expect(other.body).toEqual({ errors: [{ field: 'Idempotency-Key', detail: expect.stringContaining('different body') }] });
        const long = await create('k'.repeat(256), DEFAULT_PROJECT);
        expect(long.body).toEqual({ errors: [{ field: 'Idempotency-Key', detail: 'must be 1 to 255 characters' }] });
        const sharedKey = await create(taskKey, DEFAULT_PROJECT, requester);
        expect(sharedKey.status).toBe(422);
        expect(await projectCount()).toBe(before);
      });

      it("keeps keys per account: another account's same key and body makes its own project", async () => {
        const key = `form-${Math.random()}`;
        const mine = await create(key, DEFAULT_PROJECT);
        const theirs = await create(key, DEFAULT_PROJECT, await signUp(t));
        expect(theirs.status).toBe(201);
        expect(theirs.body.data.uuid).not.toBe(mine.body.data.uuid);
      });
    });

    it('refuses duplicate label names on labels.N and writes nothing', async () => {
      const before = await projectCount();
      const res = await consoleApi('POST', '', owner, { ...DEFAULT_PROJECT, labels: ['car', 'bus', 'car'] });
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ errors: [{ field: 'labels.2', detail: expect.stringContaining('car') }] });
      const objects = await consoleApi('POST', '', owner, { ...DEFAULT_PROJECT, labels: [{ name: 'bus' }, { name: 'bus', color: '#000000' }] });
      expect(objects.status).toBe(422);
      expect(objects.body.errors).toEqual([{ field: 'labels.1', detail: expect.any(String) }]);
      expect(await projectCount()).toBe(before);
    });

    it('lists every template variable, with a null default unless one is given', async () => {
      const p = await createProject(t, owner, {
        template: '<p>[[object]] at [[ place ]] on [[day]], again [[object]]</p>',
        variables: { day: 'Monday' },
      });
      expect(p.variables).toEqual({ object: null, place: null, day: 'Monday' });
      const [row] = await t.db.query('SELECT variables FROM projects WHERE id = $1', [p.uuid]);
      expect(row.variables).toEqual({ object: null, place: null, day: 'Monday' });
    });

    it.each([
      ['default_reward', { default_reward: 100_001 }],
      ['default_reward', { default_reward: -1 }],
      ['default_required_submissions', { default_required_submissions: 0 }],
      ['allowed_completion_time_seconds', { allowed_completion_time_seconds: 10 }],
      ['name', { name: '' }],
      ['name', { name: '   ' }],
      ['labels', { labels: [] }],
    ])('refuses a bad %s with a 422 naming it, and writes nothing', async (field, fields) => {
      const before = await projectCount();
      const res = await consoleApi('POST', '', owner, { ...DEFAULT_PROJECT, ...fields });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field, detail: expect.any(String) }]);
      expect(await projectCount()).toBe(before);
    });

    it('names every bad field at once', async () => {
      const before = await projectCount();
      const res = await consoleApi('POST', '', owner, {
        ...DEFAULT_PROJECT,
        default_reward: 100_001,
        default_required_submissions: 0,
        allowed_completion_time_seconds: 10,
        name: '',
        labels: [],
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
        ['allowed_completion_time_seconds', 'default_required_submissions', 'default_reward', 'labels', 'name'].sort(),
      );
      expect(res.body.errors.find((e: { field: string }) => e.field === 'default_reward').detail).toContain('0 to 100000');
      expect(await projectCount()).toBe(before);
    });

    it('sanitizes the template on save and keeps safe HTML and placeholders', async () => {
      const template = [
        '<p>Box every <b>[[object]]</b>.</p>',
        '<script>alert("x")</script>',
        '<img src="https://images.example.com/example.jpg" onerror="alert(1)">',
        '<a href="https://docs.example.com/guide" onclick="steal()">guide</a>',
        '<a href="javascript:alert(2)">bad link</a>',
        '<iframe src="https://evil.example.com/"></iframe>',
        '<style>body { display: none }</style>',
        '<p onclick="x()">[[place]]</p>',
        '<img src="[[image_url]]" alt="[[object]]">',
        '<a href="JaVaScRiPt:alert(3)">mixed case</a>',
      ].join('');
      const res = await consoleApi('POST', '', owner, { ...DEFAULT_PROJECT, template, variables: {} });
      expect(res.status).toBe(201);
      const saved: string = res.body.data.template;
      for (const bad of ['<script', 'alert("x")', 'onerror', 'onclick', 'javascript:', '<iframe', 'evil.example.com', '<style', 'display: none']) {
        expect(saved).not.toContain(bad);
      }
      expect(saved).toContain('<p>Box every <b>[[object]]</b>.</p>');
      expect(saved).toMatch(/<img src="https:\/\/images\.example\.com\/example\.jpg"\s*\/?>/);
      expect(saved).toMatch(/<a href="https:\/\/docs\.example\.com\/guide"[^>]*>guide<\/a>/);
      expect(saved).toContain('bad link');
      expect(saved).toContain('<p>[[place]]</p>');
      expect(saved).toMatch(/<img src="\[\[image_url\]\]" alt="\[\[object\]\]"\s*\/?>/);
      expect(saved.toLowerCase()).not.toContain('javascript');
      expect(res.body.data.variables).toEqual({ object: null, place: null, image_url: null });
      const [row] = await t.db.query('SELECT template FROM projects WHERE id = $1', [res.body.data.uuid]);
      expect(row.template).toBe(saved);
    });
  });

  describe('console: text PostgreSQL cannot store (NUL, lone surrogates)', () => {
    // Each was a 500 at the INSERT or UPDATE (text refuses NUL, jsonb both), after validation passed.
    const cases = (bad: string): Array<[string, Record<string, unknown>]> => [
      ['name', { name: `street${bad}` }],
      ['display_name', { display_name: `Find${bad}` }],
      ['display_short_description', { display_short_description: `Draw${bad}` }],
      ['template', { template: `<p>[[object]]${bad}</p>` }],
      ['labels.1', { labels: ['car', `bus${bad}`] }],
      ['labels.0.name', { labels: [{ name: `bus${bad}` }] }],
      ['variables.place', { variables: { place: `here${bad}` } }],
    ];

    it.each([
      ['NUL', '\u0000'],
      ['a lone high surrogate', '\ud800'],
      ['a lone low surrogate', '\udfff'],
    ])('%s is a 422 naming the field on create and PATCH, and nothing changes', async (_, bad) => {
      const p = await createProject(t, owner);
      const [before] = await t.db.query('SELECT * FROM projects WHERE id = $1', [p.uuid]);
      const count = await projectCount();
      for (const [field, fields] of cases(bad)) {
        const created = await consoleApi('POST', '', owner, { ...DEFAULT_PROJECT, ...fields });
        expect(['POST', field, created.status, created.body]).toEqual(['POST', field, 422, { errors: [{ field, detail: UNSTORABLE_TEXT_DETAIL }] }]);
        const patched = await consoleApi('PATCH', `/${p.uuid}`, owner, fields);
        expect(['PATCH', field, patched.status, patched.body]).toEqual(['PATCH', field, 422, { errors: [{ field, detail: UNSTORABLE_TEXT_DETAIL }] }]);
      }
      expect(await projectCount()).toBe(count);
      expect((await t.db.query('SELECT * FROM projects WHERE id = $1', [p.uuid]))[0]).toEqual(before);
    });
  });

  it('refuses an IoU threshold below 0.001, on create and PATCH, changing nothing', async () => {
    // Each was accepted as "above 0": 1e-300 then failed at the INSERT (too small for a real), a 500;
    // 1e-10 let the consensus merge boxes that do not overlap (the tie tolerance is 1e-9); 0.0001 read back as 0.
    const p = await createProject(t, owner);
    const count = await projectCount();
    const refused = { errors: [{ field: 'consensus_iou_threshold', detail: 'must be a number from 0.001 to 1' }] };
    for (const threshold of [1e-300, 1e-10, 0.0001, 0, -0.5, 1.01]) {
      const created = await consoleApi('POST', '', owner, { ...DEFAULT_PROJECT, consensus_iou_threshold: threshold });
      expect([threshold, created.status, created.body]).toEqual([threshold, 422, refused]);
      const patched = await consoleApi('PATCH', `/${p.uuid}`, owner, { consensus_iou_threshold: threshold });
      expect([threshold, patched.status, patched.body]).toEqual([threshold, 422, refused]);
    }
    expect(await projectCount()).toBe(count);
    expect((await consoleApi('GET', `/${p.uuid}`, owner)).body.data.consensus_iou_threshold).toBe(0.5);
    const smallest = await consoleApi('PATCH', `/${p.uuid}`, owner, { consensus_iou_threshold: 0.001 });
    expect([smallest.status, smallest.body.data?.consensus_iou_threshold]).toEqual([200, 0.001]);
  });

  describe('console: update, list, access', () => {
    it('PATCH writes only what it was given, over the row as it is now, not over a cached copy', async () => {
      const p = await createProject(t, owner);
      // The API's cache now holds the project (read by the requester API's add_task path).
      expect((await consoleApi('GET', `/${p.uuid}`, owner)).status).toBe(200);
      expect((await consoleApi('PATCH', `/${p.uuid}`, owner, { display_name: 'warms the cache' })).status).toBe(200);
      expect((await consoleApi('GET', `/${p.uuid}`, owner)).status).toBe(200);
      // Another process's PATCH, which this process's cache has not seen.
      await t.db.query(`UPDATE projects SET labels = '[{"name":"bus","color":"#123456"}]', default_reward = 7 WHERE id = $1`, [p.uuid]);
      const res = await consoleApi('PATCH', `/${p.uuid}`, owner, { display_name: 'Only this' });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({ display_name: 'Only this', default_reward: 7, labels: [{ name: 'bus', color: '#123456' }] });
      const [row] = await t.db.query('SELECT labels, default_reward, display_name FROM projects WHERE id = $1', [p.uuid]);
      expect(row).toEqual({ labels: [{ name: 'bus', color: '#123456' }], default_reward: 7, display_name: 'Only this' });
    });

    it('PATCH does not wait for a task insert in flight (the KEY SHARE lock its foreign key takes on the project)', async () => {
      const p = await createProject(t, owner);
      const insert = t.db.createQueryRunner();
      await insert.connect();
      try {
        await insert.startTransaction();
        // What INSERT INTO tasks takes on its project's row, held as a long add_tasks batch would hold it.
        await insert.query('SELECT 1 FROM projects WHERE id = $1 FOR KEY SHARE', [p.uuid]);
        const patch = consoleApi('PATCH', `/${p.uuid}`, owner, { display_name: 'Saved beside an insert' });
        const first = await Promise.race([patch, new Promise((resolve) => setTimeout(() => resolve('still waiting'), 10_000))]);
        expect(first).toMatchObject({ status: 200, body: { data: { display_name: 'Saved beside an insert' } } });
      } finally {
        await insert.rollbackTransaction();
        await insert.release();
      }
    });

    it('PATCH changes the given fields and leaves the rest', async () => {
      const p = await createProject(t, owner);
      const res = await consoleApi('PATCH', `/${p.uuid}`, owner, {
        display_name: 'Find the buses',
        default_reward: 99,
        labels: ['bus', { name: 'car', color: '#abcdef' }],
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        ...p,
        display_name: 'Find the buses',
        default_reward: 99,
        labels: [
          { name: 'bus', color: PALETTE[0] },
          { name: 'car', color: '#abcdef' },
        ],
        updated_at: expect.stringMatching(ISO_MS),
      });
      expect(Date.parse(res.body.data.updated_at)).toBeGreaterThanOrEqual(Date.parse(p.updated_at));
      const got = await consoleApi('GET', `/${p.uuid}`, owner);
      expect(got.body.data).toEqual(res.body.data);
    });

    it('PATCH with expected_updated_at applies only over that version of the project: a save made since is a 409 that changes nothing', async () => {
      const p = await createProject(t, owner);
      const first = await consoleApi('PATCH', `/${p.uuid}`, owner, { display_name: 'First', expected_updated_at: p.updated_at });
      expect(first.status).toBe(200);
      expect(Date.parse(first.body.data.updated_at)).toBeGreaterThan(Date.parse(p.updated_at));

      // An edit made on the copy read before the first save.
      const stale = await consoleApi('PATCH', `/${p.uuid}`, owner, { display_name: 'Stale', default_reward: 1, expected_updated_at: p.updated_at });
      expect(stale.status).toBe(409);
      expect(stale.body).toEqual({ errors: [{ field: 'expected_updated_at', detail: expect.stringContaining(`changed at ${first.body.data.updated_at}`) }] });
      expect((await consoleApi('GET', `/${p.uuid}`, owner)).body.data).toEqual(first.body.data);

      // Two edits of the same version at once: the row lock lets one through, the other sees its save.
      const both = await Promise.all(
        ['A', 'B'].map((name) => consoleApi('PATCH', `/${p.uuid}`, owner, { display_name: name, expected_updated_at: first.body.data.updated_at })),
      );
      expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
      const winner = both.find((r) => r.status === 200)?.body.data;
      expect((await consoleApi('GET', `/${p.uuid}`, owner)).body.data).toEqual(winner);

      const malformed = await consoleApi('PATCH', `/${p.uuid}`, owner, { display_name: 'x', expected_updated_at: 'yesterday' });
      expect(malformed.status).toBe(422);
      expect(malformed.body.errors).toEqual([{ field: 'expected_updated_at', detail: expect.any(String) }]);
    });

    it('PATCH with a bad field is a 422 and changes nothing', async () => {
      const p = await createProject(t, owner);
      const res = await consoleApi('PATCH', `/${p.uuid}`, owner, { default_reward: 100_001, display_name: 'changed' });
      expect(res.status).toBe(422);
      expect(res.body.errors).toEqual([{ field: 'default_reward', detail: expect.any(String) }]);
      const got = await consoleApi('GET', `/${p.uuid}`, owner);
      expect(got.body.data.display_name).toBe(p.display_name);
      expect(got.body.data.default_reward).toBe(25);
    });

    it('a PATCH is seen at once by this process, whatever case the UUID is written in, there or where it is read', async () => {
      // A UUID's hex digits may come in either case (the routes accept both): the cache held one entry per
      // spelling, and a PATCH forgot only the one its own URL spelt, so the others served the old project.
      const r = await aRequester(t);
      const upper = r.projectUuid.toUpperCase();
      const reward = async () => (await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' } })).body.data.reward;
      expect(await reward()).toBe(25);
      expect((await consoleApi('PATCH', `/${upper}`, r, { default_reward: 31 })).status).toBe(200);
      expect(await reward()).toBe(31);
      expect((await v1Project(r.liveKey, upper)).body.data.default_reward).toBe(31);
      expect((await consoleApi('PATCH', `/${r.projectUuid}`, r, { default_reward: 32 })).status).toBe(200);
      expect((await v1Project(r.liveKey, upper)).body.data.default_reward).toBe(32);
    });

    it('a refused PATCH leaves no trace, not even in what add_task and GET read', async () => {
      const r = await aRequester(t);
      // Read once so that the project sits in the server's project cache.
      expect((await consoleApi('GET', `/${r.projectUuid}`, r)).status).toBe(200);
      const bad = await consoleApi('PATCH', `/${r.projectUuid}`, r, {
        template: '<p>Only [[animal]]</p>',
        display_name: 'Renamed',
        labels: ['dog', 'dog'],
      });
      expect(bad.status).toBe(422);
      expect(bad.body.errors).toEqual([{ field: 'labels.1', detail: expect.any(String) }]);
      const got = await consoleApi('GET', `/${r.projectUuid}`, r);
      expect(got.body.data.template).toBe(DEFAULT_PROJECT.template);
      expect(got.body.data.display_name).toBe(DEFAULT_PROJECT.display_name);
      expect(got.body.data.variables).toEqual({ object: null, place: 'the picture' });
      const task = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { object: 'car' } });
      expect(task.status).toBe(201);
      expect(task.body.data.prompt).toBe('<p>Draw a box around every car in <b>the picture</b>.</p>');
    });

    it('PATCH of the template sanitizes it and re-derives the variables, and add_task uses the new ones', async () => {
      const r = await aRequester(t);
      const res = await consoleApi('PATCH', `/${r.projectUuid}`, r, {
        template: '<p>Box every [[animal]] in [[place]]<script>x()</script></p>',
      });
      expect(res.status).toBe(200);
      expect(res.body.data.template).toBe('<p>Box every [[animal]] in [[place]]</p>');
      // [[object]] left the template: it is no longer a variable; [[place]] keeps its default.
      expect(res.body.data.variables).toEqual({ animal: null, place: 'the picture' });

      const task = await addTask(t, r.liveKey, { project_uuid: r.projectUuid, substitutions: { animal: 'cat' } });
      expect(task.status).toBe(201);
      expect(task.body.data.prompt).toBe('<p>Box every cat in the picture</p>');

      const withDefaults = await consoleApi('PATCH', `/${r.projectUuid}`, r, {
        template: '<p>[[animal]] [[colour]]</p>',
        variables: { colour: 'brown' },
      });
      expect(withDefaults.status).toBe(200);
      expect(withDefaults.body.data.variables).toEqual({ animal: null, colour: 'brown' });
    });

    it('GET list returns only the caller’s projects, newest first', async () => {
      const a = await signUp(t);
      const b = await signUp(t);
      const a1 = await createProject(t, a, { name: 'a-one' });
      const a2 = await createProject(t, a, { name: 'a-two' });
      await createProject(t, b, { name: 'b-one' });
      const res = await consoleApi('GET', '', a);
      expect(res.status).toBe(200);
      expect(res.body.data.map((p: { uuid: string }) => p.uuid)).toEqual([a2.uuid, a1.uuid]);
      expect(res.body.data.map((p: { name: string }) => p.name)).not.toContain('b-one');
      expect(res.body.data.find((p: { uuid: string }) => p.uuid === a1.uuid)).toEqual(a1);
      const empty = await consoleApi('GET', '', await signUp(t));
      expect(empty.body).toEqual({ data: [], next_cursor: null, counts: { in_use: 0, archived: 0 } });
    });

    it('GET list pages newest first, in use or archived, with the figures of the page and the counts of both', async () => {
      const a = await aRequester(t, { name: 'first' });
      await aTask(t, a);
      const made = [a.projectUuid];
      for (let i = 0; i < 6; i++) made.push((await createProject(t, a, { name: `p${i}` })).uuid);
      // Two made in the same microsecond as each other, so a page can end between them.
      await t.db.query(`UPDATE projects SET created_at = '2026-01-01T00:00:00.000001Z' WHERE id = ANY($1::uuid[])`, [made.slice(3, 5)]);
      for (const uuid of [made[1], made[5]]) expect((await consoleApi('POST', `/${uuid}/archive`, a)).status).toBe(200);
      const newestFirst: string[] = (await t.db.query('SELECT id FROM projects WHERE account_id = $1 ORDER BY created_at DESC, id DESC', [a.accountId])).map(
        (r: { id: string }) => r.id,
      );

      const all: string[] = [];
      let before: string | null = null;
      do {
        const res = await consoleApi('GET', `?limit=2${before ? `&before=${encodeURIComponent(before)}` : ''}`, a);
        expect(res.status).toBe(200);
        expect(res.body.data.length).toBeLessThanOrEqual(2);
        expect(res.body.counts).toEqual({ in_use: 5, archived: 2 });
        all.push(...res.body.data.map((p: { uuid: string }) => p.uuid));
        before = res.body.next_cursor;
      } while (before);
      expect(all).toEqual(newestFirst);

      const archived = await consoleApi('GET', '?archived=true', a);
      expect(archived.body.data.map((p: { uuid: string }) => p.uuid)).toEqual(newestFirst.filter((id) => id === made[1] || id === made[5]));
      const inUse = await consoleApi('GET', '?archived=false', a);
      expect(inUse.body.data.map((p: { uuid: string }) => p.uuid)).toEqual(newestFirst.filter((id) => id !== made[1] && id !== made[5]));
      // Each project with its own figures, as its own GET answers them.
      const first = inUse.body.data.find((p: { uuid: string }) => p.uuid === a.projectUuid);
      expect(first).toEqual((await consoleApi('GET', `/${a.projectUuid}`, a)).body.data);
      expect(first.has_published_tasks).toBe(true);
    });

    it('GET list refuses a bad archived, before or limit: 422 on the field', async () => {
      const a = await signUp(t);
      for (const [query, field] of [
        ['?archived=yes', 'archived'],
        ['?before=2026-01-01', 'before'],
        ['?limit=0', 'limit'],
        ['?limit=101', 'limit'],
      ]) {
        const res = await consoleApi('GET', query, a);
        expect({ query, status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ query, status: 422, field });
      }
    });

    it('answers 401 without a session, and writes nothing', async () => {
      const before = await projectCount();
      const p = await createProject(t, owner);
      for (const req of [
        { method: 'GET' as const, url: '/api/console/projects' },
        { method: 'POST' as const, url: '/api/console/projects', body: DEFAULT_PROJECT },
        { method: 'GET' as const, url: `/api/console/projects/${p.uuid}` },
        { method: 'PATCH' as const, url: `/api/console/projects/${p.uuid}`, body: { name: 'hijacked' } },
        { method: 'GET' as const, url: '/api/console/projects', headers: { authorization: 'Bearer cbs_not-a-real-token' } },
      ]) {
        const res = await t.request(req);
        expect(res.status).toBe(401);
        expect(res.body.errors[0].field).toBe('root');
      }
      expect(await projectCount()).toBe(before + 1);
      const [row] = await t.db.query('SELECT name FROM projects WHERE id = $1', [p.uuid]);
      expect(row.name).toBe('street-scenes');
    });

    it('answers 404 for another account’s project, a missing one and a malformed uuid, and changes nothing', async () => {
      const other = await signUp(t);
      const theirs = await createProject(t, other, { name: 'theirs' });
      for (const uuid of [theirs.uuid, MISSING_UUID, 'not-a-uuid']) {
        const get = await consoleApi('GET', `/${uuid}`, owner);
        expect(get.status).toBe(404);
        expect(get.body).toEqual({ errors: [{ field: 'root', detail: 'project not found' }] });
        const patch = await consoleApi('PATCH', `/${uuid}`, owner, { name: 'mine now' });
        expect(patch.status).toBe(404);
        expect(patch.body).toEqual({ errors: [{ field: 'root', detail: 'project not found' }] });
      }
      const [row] = await t.db.query('SELECT name FROM projects WHERE id = $1', [theirs.uuid]);
      expect(row.name).toBe('theirs');
    });
  });

  describe('requester API: GET /api/v1/projects/:uuid', () => {
    let r: Requester;
    let workers: SignedIn[];
    beforeAll(async () => {
      r = await aRequester(t);
      workers = [await signUp(t), await signUp(t), await signUp(t)];
    });

    const checkout = (taskId: string, workerId: string, expiresInSeconds: number, state: LeaseFixture['state'] = 'active') =>
      leaseInDb(t.db, taskId, workerId, { expiresInSeconds, state });
    const submission = (taskId: string, workerId: string, reward: number) => submitInDb(t.db, { taskId, workerId, reward });

    it('answers every field of the Project, in the seed spec’s order', async () => {
      const res = await v1Project(r.liveKey, r.projectUuid);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.data)).toEqual([
        'allowed_completion_time_seconds',
        'available_task_count',
        'average_outstanding_task_reward_cents',
        'default_required_submissions',
        'default_reward',
        'display_name',
        'display_short_description',
        'has_published_tasks',
        'lifetime_payments_to_workers_cents',
        'name',
        'uuid',
      ]);
      expect(res.body).toEqual({
        data: {
          allowed_completion_time_seconds: 600,
          available_task_count: 0,
          average_outstanding_task_reward_cents: 0,
          default_required_submissions: 3,
          default_reward: 25,
          display_name: 'Find the cars',
          display_short_description: 'Draw a box around every car.',
          has_published_tasks: false,
          lifetime_payments_to_workers_cents: 0,
          name: 'street-scenes',
          uuid: r.projectUuid,
        },
      });
      // The console carries the same figures.
      const c = await consoleApi('GET', `/${r.projectUuid}`, r);
      expect(c.body.data).toMatchObject(res.body.data);
    });

    it('reports has_published_tasks once a task exists', async () => {
      const fresh = await aRequester(t);
      expect((await v1Project(fresh.liveKey, fresh.projectUuid)).body.data.has_published_tasks).toBe(false);
      await aTask(t, fresh);
      const after = await v1Project(fresh.liveKey, fresh.projectUuid);
      expect(after.body.data.has_published_tasks).toBe(true);
      expect(after.body.data.available_task_count).toBe(1);
    });

    it('counts open tasks with a free slot, average outstanding reward and lifetime payments', async () => {
      const [w1, w2, w3] = workers;
      // Available: no lease at all.
      await aTask(t, r, { required_submissions: 1, reward: 10 });
      // Not available: its one slot is held by an active, unexpired lease.
      const held = await aTask(t, r, { required_submissions: 1, reward: 20 });
      await checkout(held, w1.userId, 600);
      // Available: the lease expired (the expiry job has not run yet: state is still active).
      const expired = await aTask(t, r, { required_submissions: 1, reward: 30 });
      await checkout(expired, w1.userId, -60);
      // Available: the lease was released.
      const released = await aTask(t, r, { required_submissions: 1, reward: 40 });
      await checkout(released, w1.userId, 600, 'released');
      // Available: two slots, one held.
      const twoSlots = await aTask(t, r, { required_submissions: 2, reward: 50 });
      await checkout(twoSlots, w1.userId, 600);
      // Not available: one submission plus one active lease fill two slots.
      const full = await aTask(t, r, { required_submissions: 2, reward: 51 });
      await submission(full, w2.userId, 51);
      await checkout(full, w3.userId, 600);
      // Not available and not outstanding: complete, or cancelled.
      const done = await aTask(t, r, { required_submissions: 1, reward: 100_000 });
      await submission(done, w3.userId, 100_000);
      const cancelled = await aTask(t, r, { required_submissions: 3, reward: 90_000 });
      await t.db.query('UPDATE tasks SET cancelled_at = now() WHERE id = $1', [cancelled]);
      await submission(cancelled, w1.userId, 90_000);

      // Another account's payments and tasks never count.
      const other = await aRequester(t);
      const foreign = await aTask(t, other, { reward: 7 });
      await submission(foreign, w1.userId, 7);

      const res = await v1Project(r.liveKey, r.projectUuid);
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        has_published_tasks: true,
        available_task_count: 4,
        // (10 + 20 + 30 + 40 + 50 + 51) / 6 = 33.5 -> 34
        average_outstanding_task_reward_cents: 34,
        lifetime_payments_to_workers_cents: 51 + 100_000 + 90_000,
      });

      const otherRes = await v1Project(other.liveKey, other.projectUuid);
      expect(otherRes.body.data).toMatchObject({
        available_task_count: 1,
        average_outstanding_task_reward_cents: 7,
        lifetime_payments_to_workers_cents: 7,
      });
    });

    it('reads what was paid from the project’s task rows, never the table of every submission', async () => {
      // The figure itself is checked above, against submissions made with their own rewards.
      expect(await tableReads(t.db, PROJECT_STATS_SQL, [[r.projectUuid]], 'submissions')).toEqual([]);
      const [{ paid }] = await t.db.query(
        'SELECT coalesce(sum(s.reward), 0)::int AS paid FROM submissions s JOIN tasks t ON t.id = s.task_id WHERE t.project_id = $1',
        [r.projectUuid],
      );
      expect((await v1Project(r.liveKey, r.projectUuid)).body.data.lifetime_payments_to_workers_cents).toBe(paid);
    });

    it('counts a task’s leases only when one of them has expired unswept, and reads its open tasks once', async () => {
      const [w1, w2] = workers;
      const fresh = await aRequester(t);
      // Open tasks with no lease, with a live lease, and a full one: their rows' lease hint answers.
      for (let i = 0; i < 20; i++) await aTask(t, fresh, { required_submissions: 2 });
      const live = await aTask(t, fresh, { required_submissions: 2 });
      await checkout(live, w1.userId, 600);
      const full = await aTask(t, fresh, { required_submissions: 2 });
      await checkout(full, w1.userId, 600);
      await checkout(full, w2.userId, 600);
      const params = [[fresh.projectUuid]];
      expect(await tableScans(t.db, PROJECT_STATS_SQL, params, 'checkouts')).toBe(0);
      expect((await v1Project(fresh.liveKey, fresh.projectUuid)).body.data.available_task_count).toBe(21);

      // One lease of the full task expires before the sweep ends it: that task's leases are counted, and its slot is free.
      await t.db.query(`UPDATE checkouts SET expires_at = now() - interval '1 minute' WHERE task_id = $1 AND worker_id = $2`, [full, w2.userId]);
      expect(await tableScans(t.db, PROJECT_STATS_SQL, params, 'checkouts')).toBe(1);
      expect((await v1Project(fresh.liveKey, fresh.projectUuid)).body.data.available_task_count).toBe(22);
      // The count and the mean reward come from one read of the open tasks (plus has_tasks' and paid's own).
      expect((await tableReads(t.db, PROJECT_STATS_SQL, params, 'tasks')).length).toBe(3);
    });

    it('rounds the mean outstanding reward', async () => {
      const fresh = await aRequester(t);
      for (const reward of [10, 10, 11]) await aTask(t, fresh, { reward });
      // 31 / 3 = 10.33 -> 10
      expect((await v1Project(fresh.liveKey, fresh.projectUuid)).body.data.average_outstanding_task_reward_cents).toBe(10);
      await aTask(t, fresh, { reward: 12 });
      // 43 / 4 = 10.75 -> 11
      expect((await v1Project(fresh.liveKey, fresh.projectUuid)).body.data.average_outstanding_task_reward_cents).toBe(11);
    });

    it('answers 422 project not found for another account’s project, a missing one or a malformed uuid', async () => {
      const other = await aRequester(t);
      for (const uuid of [other.projectUuid, MISSING_UUID, 'not-a-uuid']) {
        const res = await v1Project(r.liveKey, uuid);
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'project not found' }] });
      }
      // The owner still sees it.
      expect((await v1Project(other.liveKey, other.projectUuid)).status).toBe(200);
    });

    it('answers 422 worktask not found for another account’s task and its annotations', async () => {
      const other = await aRequester(t);
      const theirs = await aTask(t, other);
      for (const url of [`/api/v1/tasks/${theirs}`, `/api/v1/tasks/${theirs}/annotations`, `/api/v1/tasks/${theirs}/annotations?view=submissions`]) {
        const res = await t.request({ method: 'GET', url, headers: { apikey: r.liveKey } });
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'worktask not found' }] });
        const own = await t.request({ method: 'GET', url, headers: { apikey: other.liveKey } });
        expect(own.status).toBe(200);
      }
      for (const uuid of [MISSING_UUID, 'not-a-uuid']) {
        const res = await t.request({ method: 'GET', url: `/api/v1/tasks/${uuid}/annotations`, headers: { apikey: r.liveKey } });
        expect(res.status).toBe(422);
        expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'worktask not found' }] });
      }
    });

    it('answers 401 without an apikey', async () => {
      const res = await t.request({ method: 'GET', url: `/api/v1/projects/${r.projectUuid}` });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ errors: [{ field: 'apikey', detail: 'Missing header apikey' }] });
    });
  });
});
