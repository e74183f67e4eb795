import type { AccountExport, ConsoleProjectResponse } from '@crowdbox/contracts';
import type { ObjectLiteral, QueryRunner } from 'typeorm';
import { aRequester, aTask, type Requester } from '../../../test/factories';
import { startTestApp, type TestApp } from '../../../test/test-app';
import { PROJECT_STATS_SQL } from '../../projects/project-stats';
import { AccountExportService, EXPORT_PROJECTS_PAGE } from '../account-export.service';

/**
 * The projects of the user's data file (docs/decisions.md, "Downloading your data"): read a page at a time
 * as the console's list reads them, so that no statement reads the figures of more than a page of
 * projects, and a page is written out before the next is read.
 */
describe('downloading your data: the projects', () => {
  let t: TestApp;
  let r: Requester;
  /** The account's projects as the file must list them: newest first, then by id. */
  let expected: string[];
  beforeAll(async () => {
    t = await startTestApp();
    r = await aRequester(t);
    // More than two pages, made in pairs within one microsecond, so that pages end between the two of a
    // pair and a page that ordered or cut by the moment alone would skip or repeat one.
    const extra = EXPORT_PROJECTS_PAGE * 2 + 3;
    await t.db.query(
      `INSERT INTO projects (id, account_id, name, display_name, display_short_description, template, variables, labels, image_variable,
                             default_required_submissions, default_reward, allowed_completion_time_seconds, created_at, updated_at, archived_at)
       SELECT gen_random_uuid(), p.account_id, 'project ' || n, p.display_name, p.display_short_description, p.template, p.variables, p.labels,
              p.image_variable, p.default_required_submissions, p.default_reward, p.allowed_completion_time_seconds, m.at, m.at,
              CASE WHEN n % 7 = 0 THEN m.at END
         FROM projects p, generate_series(1, $2::int) n,
              LATERAL (SELECT '2026-01-01T00:00:00Z'::timestamptz + (n / 2) * interval '1 microsecond' AS at) m
        WHERE p.id = $1`,
      [r.projectUuid, extra],
    );
    expected = (await t.db.query('SELECT id FROM projects WHERE account_id = $1 ORDER BY created_at DESC, id DESC', [r.accountId])).map(
      (row: { id: string }) => row.id,
    );
    expect(expected).toHaveLength(extra + 1);
    // Figures on the first page and on the last.
    await aTask(t, r);
    await aTask(t, { ...r, projectUuid: expected[expected.length - 1] }, { reward: 7 });
  });
  afterAll(async () => {
    await t.close();
  });

  /**
   * Each read of the projects' figures while `run` runs: its project ids, and what `written` answered when
   * it began. The database answers every statement; the spy only notes the figures' ones.
   */
  async function statsReads<T>(
    run: () => Promise<T>,
    written: () => string = () => '',
  ): Promise<{ result: T; reads: Array<{ ids: string[]; written: string }>; statements: string[] }> {
    const reads: Array<{ ids: string[]; written: string }> = [];
    const statements: string[] = [];
    const original = t.db.query.bind(t.db);
    const query = jest.spyOn(t.db, 'query').mockImplementation((sql: string, parameters?: unknown[] | ObjectLiteral, runner?: QueryRunner) => {
      statements.push(sql);
      if (sql === PROJECT_STATS_SQL) reads.push({ ids: [...(parameters as string[][])[0]], written: written() });
      return original(sql, parameters, runner);
    });
    try {
      return { result: await run(), reads, statements };
    } finally {
      query.mockRestore();
    }
  }

  it('lists every project once, newest first, as the console lists them, in the same JSON layout', async () => {
    const { result: res, reads, statements } = await statsReads(() => t.request({ method: 'GET', url: '/api/session/export', headers: r.auth }));
    expect(res.status).toBe(200);
    const data = JSON.parse(res.text) as AccountExport;
    expect(data.projects.map((p) => p.uuid)).toEqual(expected);
    // As the console's pages answer them, figures included.
    const pages: ConsoleProjectResponse[] = [];
    let before: string | null = null;
    do {
      const page = await t.request({ method: 'GET', url: `/api/console/projects?limit=100${before ? `&before=${encodeURIComponent(before)}` : ''}`, headers: r.auth });
      pages.push(...page.body.data);
      before = page.body.next_cursor;
    } while (before);
    expect(data.projects).toEqual(pages);
    expect(data.projects[0]).toMatchObject({ uuid: r.projectUuid, available_task_count: 1 });
    expect(data.projects[expected.length - 1]).toMatchObject({ available_task_count: 1, average_outstanding_task_reward_cents: 7 });
    // One JSON.stringify of the whole file would write these very bytes, its properties in the contract's order.
    expect(res.text).toBe(JSON.stringify(data));
    expect(Object.keys(data)).toEqual(['format', 'exported_at', 'user', 'account', 'sessions', 'api_keys', 'projects', 'webhook_endpoints', 'blocked_workers', 'submissions']);

    // The figures were read a page at a time, each project's once, in the file's order.
    expect(reads.length).toBe(Math.ceil(expected.length / EXPORT_PROJECTS_PAGE));
    for (const read of reads) expect(read.ids.length).toBeLessThanOrEqual(EXPORT_PROJECTS_PAGE);
    expect(reads.flatMap((read) => read.ids)).toEqual(expected);
    // Not the console list's counts of the account's projects, which its pages each read again.
    expect(statements.filter((sql) => sql.includes('count(*) FILTER (WHERE archived_at IS NULL)'))).toEqual([]);
  });

  it('writes each page of projects out before it reads the figures of the next', async () => {
    const exports = t.app.get(AccountExportService);
    const [session]: Array<{ id: string }> = await t.db.query('SELECT id FROM sessions WHERE user_id = $1', [r.userId]);
    let text = '';
    const { reads } = await statsReads(
      async () => {
        const chunks = await exports.export({ userId: r.userId, accountId: r.accountId, email: r.email, name: 'Test User', sessionId: session.id }, () => undefined);
        for await (const chunk of chunks) text += chunk;
      },
      () => text,
    );
    expect((JSON.parse(text) as AccountExport).projects.map((p) => p.uuid)).toEqual(expected);
    expect(reads.length).toBeGreaterThan(2);
    for (const [i, read] of reads.entries()) {
      // Every project of the pages before is in the file already; none of this page or after is.
      for (const id of reads.slice(0, i).flatMap((earlier) => earlier.ids)) expect(read.written).toContain(id);
      for (const id of reads.slice(i).flatMap((later) => later.ids)) expect(read.written).not.toContain(id);
    }
  });
});
