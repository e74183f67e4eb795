import { useHarness } from '../../support/harness';
import { aProjectWithTasks, aWorker } from '../../support/scenario';
import { AxeAudit } from '../a11y/axe';
import { consoleScreenshot, ProjectOverviewPage, ProjectWorkersPage, TaskDetailPage, TaskListPage } from './console.pages';
import { addTask, workOnNextTask, type Box } from './requester-client';

const harness = useHarness();
const IMAGE = { width: 960, height: 640 };
const CAR: Box = { label: 'car', center_x: 200, center_y: 200, width: 120, height: 80 };
// Nowhere near the car: no IoU with it at all.
const FAR_AWAY: Box = { label: 'car', center_x: 800, center_y: 520, width: 120, height: 80 };
const TASKS = 3;

describe('a project’s Workers page', () => {
  it('puts the careless worker first, with the lowest agreement, and blocks them from their row', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: TASKS, requiredSubmissions: 3 });
    const workers = await Promise.all(['Anna Careful', 'Ben Careful', 'Carl Careless'].map(async (name) => ({ name, auth: (await aWorker(h, name)).auth })));
    // Every worker does every task: two draw the car, the third a box far from it.
    for (let i = 0; i < TASKS; i++) {
      for (const worker of workers) await workOnNextTask(h.baseUrl, worker, project.projectUuid, [worker.name === 'Carl Careless' ? FAR_AWAY : CAR], IMAGE);
    }
    // Requesters know workers by their pseudonyms only: Carl's is the one whose box is far away.
    const detail = await h.api.request({ method: 'GET', url: `/api/console/projects/${project.projectUuid}/tasks/${project.taskUuids[0]}`, headers: project.requester.auth });
    const submissions: Array<{ worker: string; annotations: Box[] }> = detail.body.data.results.submissions;
    expect(submissions).toHaveLength(3);
    const carl = submissions.find((s) => s.annotations[0].center_x === FAR_AWAY.center_x)?.worker ?? '';
    const careful = submissions.map((s) => s.worker).filter((w) => w !== carl);
    // A task no one has done yet: listed among the project's tasks, not among Carl's.
    const untouched = await addTask(h.baseUrl, project.liveKey, { project_uuid: project.projectUuid, external_image_url: h.images.url(IMAGE.width, IMAGE.height, 'untouched'), substitutions: {} });

    const page = await h.newPage({ as: project.requester });
    const audit = new AxeAudit();
    // A task's page says, per worker, how their boxes match the others': the figure the Workers page sums.
    const task = new TaskDetailPage(page);
    await task.open(project.projectUuid, project.taskUuids[0]);
    const toggles = await task.workerToggles.allInnerTexts();
    expect(toggles.find((text) => text.includes(carl))).toContain('matches 0 of the others’ 1 box');
    for (const worker of careful) expect(toggles.find((text) => text.includes(worker))).toContain('matches 1 of the others’ 2 boxes');
    await new ProjectOverviewPage(page).open(project.projectUuid);
    const list = new ProjectWorkersPage(page);
    await list.openFromProject();
    expect(new URL(page.url()).pathname).toBe(`/console/projects/${project.projectUuid}/workers`);
    expect(await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Workers' }).getAttribute('aria-current')).toBe('page');
    expect(await list.about.innerText()).toContain(`Read from the latest ${TASKS} completed tasks of this project.`);

    // Carl's peers (Anna and Ben) agree on the car, which he never drew: no match at all. Anna's peers are
    // Ben's car and Carl's far box (each drawn by one of two), so she matches one of their two: 2·1/(1+2).
    const rows = await list.rowTexts();
    expect(rows[0]['Worker']).toBe(carl);
    expect(rows.slice(1).map((r) => r['Worker']).sort()).toEqual(careful.sort());
    expect(rows.map((r) => [r['Submissions'], r['Compared tasks'], r['Agreement'], r['Their boxes others drew too'], r['Others’ boxes they drew too']])).toEqual([
      ['3', '3', '0 %', '0 %', '0 %'],
      ['3', '3', '67 %', '100 %', '50 %'],
      ['3', '3', '67 %', '100 %', '50 %'],
    ]);
    expect(rows.map((r) => r['Block'])).toEqual(['Block worker…', 'Block worker…', 'Block worker…']);
    await audit.check(page, 'project workers page');

    // Before blocking Carl the requester looks at what he did: his name leads to the tasks he submitted to.
    const tasks = new TaskListPage(page);
    await list.openTasksOf(carl);
    expect(new URL(page.url()).search).toBe(`?worker=${carl}`);
    expect(await tasks.workerFilter.innerText()).toContain(`Tasks ${carl} submitted to`);
    await tasks.waitForTasks(project.taskUuids);
    expect(await tasks.caption()).toBe(`All tasks that ${carl} submitted to, newest first, page 1`);
    await audit.check(page, 'task list of one worker');
    await tasks.showAllWorkers();
    expect(await tasks.workerFilter.count()).toBe(0);
    await tasks.waitForTasks([...project.taskUuids, untouched]);
    expect(new URL(page.url()).search).toBe('');
    // Removing the filter replaced its entry, as the list's filters do: Back returns to the Workers page.
    await page.goBack();
    await list.waitForList();

    expect(await list.block(carl)).toBe(`${carl} is blocked. They held none of your tasks. Blocked workers`);
    await audit.check(page, 'project workers page, worker blocked');
    await consoleScreenshot(page, 'project-workers');
    expect((await list.rowTexts()).map((r) => [r['Worker'], r['Block']])).toEqual([
      [carl, 'blocked'],
      [rows[1]['Worker'], 'Block worker…'],
      [rows[2]['Worker'], 'Block worker…'],
    ]);
    // The list read again (here, after a reload) has the block from the server, linked to where it is lifted.
    await page.reload();
    await list.waitForList();
    const blocked = list.rows.filter({ hasText: carl }).getByRole('link', { name: `${carl} is blocked: see Blocked workers` });
    expect(await blocked.getAttribute('href')).toBe('/console/workers');
    audit.assertNone();
  });

  it('says a worker’s name typed into the task list’s address is not one, and that a worker of none of its tasks has none', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 1 });
    const page = await h.newPage({ as: project.requester });
    const audit = new AxeAudit();
    const tasks = new TaskListPage(page);
    await page.goto(`/console/projects/${project.projectUuid}/tasks?state=incomplete&worker=carl`);
    await tasks.workerRefused.waitFor();
    expect(await tasks.workerRefused.innerText()).toContain('“carl” is not the name of a worker.');
    await audit.check(page, 'task list, worker name refused');
    await tasks.showAllWorkers();
    await tasks.waitForTasks(project.taskUuids);
    expect(new URL(page.url()).search).toBe('?state=incomplete');

    await page.goto(`/console/projects/${project.projectUuid}/tasks?worker=worker_000000000000`);
    await tasks.waitForTasks([]);
    expect(await page.locator('.cbc-empty').innerText()).toBe('worker_000000000000 submitted to no task of this project.');
    audit.assertNone();
  });

  it('says so before any task of the project is complete', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 1 });
    const page = await h.newPage({ as: project.requester });
    const list = new ProjectWorkersPage(page);
    await page.goto(`/console/projects/${project.projectUuid}/workers`);
    await list.waitForList();
    expect(await list.empty.innerText()).toContain('No task of this project is complete yet.');
  });
});
