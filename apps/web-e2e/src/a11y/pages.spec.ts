import { useHarness, type Harness } from '../../support/harness';
import { AccountPage } from '../../support/pages/account.page';
import { WorkHistoryPage } from '../../support/pages/work-history.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { TaskPage } from '../../support/pages/task.page';
import { aProjectWithTasks, aWorker, aWorkerOnATask, expireLease } from '../../support/scenario';
import { ApiKeysPage, ProjectOverviewPage, TaskDetailPage, TaskListPage, WebhooksPage } from '../console/console.pages';
import { checkOutNext, signUpWorker, workOnNextTask } from '../console/requester-client';
import { AxeAudit } from './axe';

/**
 * axe-core on every page a worker and a requester reach, in the states that matter (forms with their
 * errors, a task with a box drawn, each dialog open): no serious or critical violation. Each test checks
 * all its states and then fails once, listing every rule, element and fix (AxeAudit).
 */
const harness = useHarness();
const IMAGE = { width: 960, height: 640 };

/** Webhook events of the account as fixtures, one in each state, so the log shows rows and their badges. */
async function addEvents(h: Harness, accountId: string): Promise<void> {
  await h.api.db.query(
    `INSERT INTO webhook_events (id, account_id, type, payload, state, next_attempt_at, created_at)
     SELECT gen_random_uuid(), $1, 'task_completed', '{}'::jsonb, s,
            CASE WHEN s = 'pending' THEN now() + interval '1 day' END, now() - make_interval(mins => i::int)
       FROM unnest(ARRAY['pending', 'delivered', 'failed']) WITH ORDINALITY AS t(s, i)`,
    [accountId],
  );
}

describe('accessibility (axe-core): no serious or critical violations', () => {
  it('on sign-in and sign-up, empty and with their errors shown', async () => {
    const h = harness();
    const audit = new AxeAudit();
    const page = await h.newPage();

    await page.goto('/login');
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await audit.check(page, 'log-in form');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').filter({ hasText: 'email or password is wrong' }).waitFor();
    await audit.check(page, 'log-in form, wrong password');

    await page.goto('/signup');
    await page.getByRole('button', { name: 'Create an account' }).waitFor();
    await audit.check(page, 'sign-up form');
    await page.getByLabel('Your name').fill('Ada Access');
    await page.getByLabel('Email').fill(`ada-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.locator('#auth-password-error').waitFor();
    await audit.check(page, 'sign-up form, password refused');

    audit.assertNone();
  });

  it("on the worker's pages: projects, a task with a box drawn, its dialogs, history and account", async () => {
    const h = harness();
    const audit = new AxeAudit();
    const { project, page, task } = await aWorkerOnATask(h, { tasks: 3 });

    await audit.check(page, 'annotator, task loaded, no box');
    await task.annotator.drawBox(0.2, 0.3, 0.5, 0.7);
    await task.annotator.drawBox(0.6, 0.2, 0.8, 0.5);
    await task.annotator.selectBox(0);
    await audit.check(page, 'annotator, two boxes drawn, one selected, box list');

    await task.annotator.stage.focus();
    await task.annotator.press('?');
    await task.annotator.keymap.waitFor();
    await audit.check(page, 'annotator, keymap open');
    await task.annotator.press('Escape');
    await task.annotator.keymap.waitFor({ state: 'hidden' });

    await task.skip();
    await page.getByTestId('skip-confirm').waitFor();
    await audit.check(page, 'annotator, "Skip and throw away boxes?" asked');
    await page.keyboard.press('Escape');
    await page.getByTestId('skip-confirm').waitFor({ state: 'hidden' });

    await task.reportProblemButton.click();
    await task.problemReport.waitFor();
    await audit.check(page, 'annotator, "Report a problem" open');
    await page.keyboard.press('Escape');

    await task.submit();
    await task.notice.waitFor();
    await task.waitForTask();
    await audit.check(page, 'annotator, after a submit (notice shown)');

    const projects = await new WorkProjectsPage(page).goto();
    await projects.project(project.displayName).waitFor();
    await audit.check(page, 'worker project list');
    await page.getByTestId('user-menu').click();
    await page.getByRole('link', { name: 'Account' }).waitFor();
    await audit.check(page, 'worker project list, user menu open');

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    // The signed-in devices arrive after the page: the audit sees their table, not "Loading".
    await page.getByTestId('device-row').first().waitFor();
    await audit.check(page, 'account page');
    await new AccountPage(page).changePassword('wrong password', 'a new password 1', 'does not match');
    await page.locator('.field-error').first().waitFor();
    await audit.check(page, 'account page, change-password errors');

    const history = await new WorkHistoryPage(page).goto();
    await history.rows.first().waitFor();
    await audit.check(page, 'work history');

    audit.assertNone();
  });

  it("on the console's pages: projects, a project, its tasks and settings, keys, webhooks and each dialog", async () => {
    const h = harness();
    const audit = new AxeAudit();
    const project = await aProjectWithTasks(h, { tasks: 3, image: IMAGE });
    const worker = await signUpWorker(h.baseUrl, 'Vera Worker');
    const done = await workOnNextTask(h.baseUrl, worker, project.projectUuid, [{ label: 'car', center_x: 200, center_y: 300, width: 120, height: 80 }], IMAGE);
    await addEvents(h, project.requester.accountId);
    const page = await h.newPage({ as: project.requester });

    await page.goto('/console');
    await page.getByRole('link', { name: project.displayName }).waitFor();
    await audit.check(page, 'console project list');

    const overview = new ProjectOverviewPage(page);
    await overview.open(project.projectUuid);
    await audit.check(page, 'project page (progress)');
    await overview.openCancelDialog();
    await audit.check(page, 'project page, cancel-outstanding dialog open');
    await page.keyboard.press('Escape');
    await overview.cancelDialog.waitFor({ state: 'hidden' });

    const tasks = new TaskListPage(page);
    await tasks.open(project.projectUuid);
    await tasks.rows.first().waitFor();
    await audit.check(page, 'task list');

    const detail = new TaskDetailPage(page);
    await detail.open(project.projectUuid, done);
    await detail.consensusRows.first().waitFor();
    await audit.check(page, 'complete task with its consensus boxes');
    await detail.open(project.projectUuid, project.taskUuids.find((t) => t !== done) ?? '');
    await detail.openCancelDialog();
    await audit.check(page, 'outstanding task, cancel dialog open');
    await page.keyboard.press('Escape');

    await page.goto(`/console/projects/${project.projectUuid}/settings`);
    await page.getByLabel('Display name', { exact: true }).waitFor();
    await audit.check(page, 'project settings form');
    await page.getByLabel('Display name', { exact: true }).fill('');
    await page.getByLabel('Time allowed (seconds)', { exact: true }).fill('10');
    await page.getByRole('button', { name: /^Save/ }).click();
    await page.locator('.field-error').first().waitFor();
    await audit.check(page, 'project settings form, errors shown');

    await page.goto('/console/projects/new');
    await page.getByTestId('template-preview').waitFor();
    await audit.check(page, 'new project form with preview');

    const keys = new ApiKeysPage(page);
    await keys.open();
    await keys.create('test');
    await audit.check(page, 'API keys, a new secret shown');
    await keys.rows.first().getByRole('button', { name: /^Revoke key/ }).click();
    await page.getByRole('dialog').waitFor();
    await audit.check(page, 'API keys, revoke dialog open');
    await page.keyboard.press('Escape');

    const hooks = new WebhooksPage(page);
    await hooks.open();
    await hooks.events.first().waitFor();
    await audit.check(page, 'webhooks and event log');

    audit.assertNone();
  });

  it('at phone width, and on the empty and not-found pages', async () => {
    const h = harness();
    const audit = new AxeAudit();
    const phone = { width: 390, height: 844 };
    const project = await aProjectWithTasks(h, { tasks: 1, image: IMAGE });
    const worker = await aWorker(h);

    const workerPage = await h.newPage({ as: worker, viewport: phone });
    const task = await new TaskPage(workerPage).goto(project.projectUuid);
    await task.annotator.drawBox(0.2, 0.3, 0.6, 0.7);
    await audit.check(workerPage, 'phone: annotator with a box');
    await task.submit();
    await task.noTask.waitFor();
    await audit.check(workerPage, 'phone: no task left in the project');
    await new WorkProjectsPage(workerPage).goto();
    await audit.check(workerPage, 'phone: worker project list (none with work)');

    const requesterPage = await h.newPage({ as: project.requester, viewport: phone });
    await new ProjectOverviewPage(requesterPage).open(project.projectUuid);
    await audit.check(requesterPage, 'phone: project page');

    const newcomer = await h.newPage({ as: await aWorker(h, 'Nina Newcomer') });
    await newcomer.goto('/console');
    await newcomer.getByRole('heading', { name: 'No projects yet' }).waitFor();
    await audit.check(newcomer, 'console, no projects yet');
    await new WorkHistoryPage(newcomer).goto();
    await newcomer.getByTestId('history-empty').waitFor();
    await audit.check(newcomer, 'work history, empty');
    await newcomer.goto('/no/such/page');
    await newcomer.getByRole('heading', { level: 1 }).waitFor();
    await audit.check(newcomer, 'not-found page');
    await newcomer.goto('/console/no-such-page');
    await newcomer.getByRole('heading', { level: 1 }).waitFor();
    await audit.check(newcomer, 'console not-found page');

    audit.assertNone();
  });

  it('in the less common states: an expired lease, a task with problem reports, the label-change and rotate-secret dialogs, an event opened', async () => {
    const h = harness();
    const audit = new AxeAudit();
    const { project, page, task } = await aWorkerOnATask(h, { tasks: 3 });
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await expireLease(h, await task.checkoutId());
    await task.submit();
    await task.expired.waitFor();
    await audit.check(page, 'annotator, lease expired on submit');

    // Another worker gives a task back with a problem; a third holds one, so renaming a label asks first.
    const reporter = await aWorker(h, 'Rory Reporter');
    const lease = await h.api.request({ method: 'POST', url: '/api/work/checkouts', headers: reporter.auth, body: { project_uuid: project.projectUuid } });
    const reported: string = lease.body.data.task_uuid;
    await h.api.request({ method: 'POST', url: `/api/work/checkouts/${lease.body.data.checkout_id}/release`, headers: reporter.auth, body: { problem: 'unclear_instructions' } });
    await checkOutNext(h.baseUrl, await signUpWorker(h.baseUrl, 'Busy Worker'), project.projectUuid);
    await addEvents(h, project.requester.accountId);

    const consolePage = await h.newPage({ as: project.requester });
    const tasks = new TaskListPage(consolePage);
    await tasks.open(project.projectUuid);
    await tasks.row(reported).getByTestId('task-problem-reports').waitFor();
    await tasks.showReported(true);
    await audit.check(consolePage, 'task list, reported tasks only');
    const detail = new TaskDetailPage(consolePage);
    await detail.open(project.projectUuid, reported);
    await detail.problems.getByTestId('problem-row').first().waitFor();
    await audit.check(consolePage, 'outstanding task with a problem report');

    await consolePage.goto(`/console/projects/${project.projectUuid}/settings`);
    await consolePage.getByLabel('Name of label 1', { exact: true }).fill('automobile');
    await consolePage.getByRole('button', { name: 'Save changes' }).click();
    await consolePage.getByRole('dialog').waitFor();
    await audit.check(consolePage, 'settings, "Remove or rename labels in use?" dialog');
    await consolePage.keyboard.press('Escape');

    const hooks = new WebhooksPage(consolePage);
    await hooks.open();
    await hooks.events.first().locator('summary').click();
    await audit.check(consolePage, 'event log, an event opened');
    await consolePage.getByTestId('rotate-secret').click();
    await consolePage.getByRole('dialog').waitFor();
    await audit.check(consolePage, 'webhooks, rotate-secret dialog');

    audit.assertNone();
  });

  it('on a touch phone, and with an image that does not load', async () => {
    const h = harness();
    const audit = new AxeAudit();
    const project = await aProjectWithTasks(h, { tasks: 2, image: IMAGE });

    // A coarse pointer: the annotator shows its touch controls.
    const tablet = await h.newPage({ as: await aWorker(h, 'Tia Tablet'), viewport: { width: 390, height: 844 }, hasTouch: true });
    await new TaskPage(tablet).goto(project.projectUuid);
    await audit.check(tablet, 'touch phone: annotator, task loaded');

    const page = await h.newPage({ as: await aWorker(h) });
    await page.route('**/images/**', (route) => route.abort('failed'));
    await page.goto(`/work/${project.projectUuid}`);
    await page.getByTestId('image-failed').waitFor();
    await audit.check(page, 'annotator, the image failed to load');
    // The failed image's own console error is expected here; any other still fails.
    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);

    audit.assertNone();
  });
});
