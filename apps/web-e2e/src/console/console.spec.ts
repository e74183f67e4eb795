import { useHarness } from '../../support/harness';
import { aProjectWithTasks } from '../../support/scenario';
import { expectEventually } from '../../support/expect-eventually';
import { CallbackReceiver } from './callback-receiver';
import { ApiKeysPage, consoleScreenshot, ProjectFormPage, ProjectOverviewPage, tabTo, TaskDetailPage, TaskListPage, WebhooksPage } from './console.pages';
import { addTask, signUpWorker, workOnNextTask, type Box } from './requester-client';

const harness = useHarness();
const IMAGE = { width: 800, height: 600 };
// Colours that stand out on the test image's red car and yellow post.
const CAR = { name: 'car', color: '#17becf' };
const PERSON = { name: 'person', color: '#9467bd' };

/**
 * Three workers' boxes around the test image's red car and yellow post, each a few pixels off; the
 * third also boxes something in the sky that nobody else saw. Consensus: the per-edge medians.
 */
function workerBoxes(i: number): Box[] {
  const boxes: Box[] = [
    { label: 'car', center_x: 192 + i, center_y: 399 - i, width: 224 + 2 * i, height: 138 },
    { label: 'person', center_x: 704, center_y: 324 + i, width: 32, height: 192 - 2 * i },
  ];
  if (i === 2) boxes.push(STRAY);
  return boxes;
}
/** The first worker's colour on the task page. */
const WORKER_COLOR_1 = '#e6194b';
const STRAY: Box = { label: 'car', center_x: 60, center_y: 60, width: 40, height: 30 };
const CAR_CONSENSUS: Box = { label: 'car', center_x: 193, center_y: 398, width: 226, height: 138 };
const PERSON_CONSENSUS: Box = { label: 'person', center_x: 704, center_y: 325, width: 32, height: 190 };

describe('the requester console', () => {
  it('takes a requester from sign-up to a project, a key, a finished task with boxes, its webhook and a cancel', async () => {
    const h = harness();
    const receiver = await new CallbackReceiver().start();
    try {
      const page = await h.newPage();

      // Sign up: the console asks for an account first and comes back afterwards.
      await page.goto('/console');
      await page.waitForURL(/\/login\?next=%2Fconsole/);
      await page.getByRole('link', { name: 'Create an account' }).click();
      await page.getByLabel('Your name').fill('Rita Requester');
      await page.getByLabel('Email').fill(`rita-${Date.now()}@example.com`);
      await page.getByLabel('Password').fill('correct horse battery');
      await page.getByRole('button', { name: 'Create an account' }).click();
      await page.waitForURL((url) => url.pathname === '/console');
      await page.getByRole('heading', { name: 'No projects yet' }).waitFor();

      // Create a project; the preview follows the template and the samples as they are typed.
      await page.getByRole('link', { name: 'New project' }).click();
      const form = new ProjectFormPage(page);
      await form.fillAbout({ name: 'street-2025', displayName: 'Find cars and people', description: 'Box every car and every person.' });
      const template = form.field('Template (HTML)');
      await template.fill('<h3>Box every [[thing]]</h3>');
      await form.expectPreview('Box every [thing]');
      await template.pressSequentially('<p>Seen in [[place]].</p>');
      await form.variableRow('place').waitFor();
      await form.expectPreview('Seen in [place].');
      await form.setDefault('thing', 'car and person');
      await form.expectPreview('Box every car and person');
      await form.setSample('place', '<b>Main Street</b>');
      // Values are HTML-escaped, as the API renders them for workers: the tags show as text.
      await form.expectPreview('Seen in <b>Main Street</b>.');
      expect(await form.preview.locator('b').count()).toBe(0);
      await form.setDefault('place', 'the street');
      await form.expectPreview('Seen in <b>Main Street</b>.'); // the sample wins over the default in the preview
      await form.setLabel(0, CAR.name, CAR.color);
      await form.setLabel(1, PERSON.name, PERSON.color);
      await form.field('Required submissions').fill('3');
      await form.field('Reward (cents)').fill('25');
      await form.field('Time allowed (seconds)').fill('10');
      expect(await form.estimate.innerText()).toContain('100 tasks × 3 submissions × $0.25 = $75.00');
      await consoleScreenshot(page, 'project-new');

      // The API refuses 10 s; its words appear under the field.
      await form.create();
      await expectEventually(async () => (await form.fieldError('Time allowed (seconds)')).length > 0, 'a field error under Time allowed');
      expect(await form.fieldError('Time allowed (seconds)')).toMatch(/30/);
      await form.field('Time allowed (seconds)').fill('600');
      await form.create();
      await page.waitForURL(/\/console\/projects\/[0-9a-f-]{36}$/);
      const projectUuid = new URL(page.url()).pathname.split('/').pop() as string;

      // A live key: the secret is shown once, and the first call has the project and key filled in.
      const keys = new ApiKeysPage(page);
      await keys.open();
      const secret = await keys.create('live');
      expect(secret).toMatch(/^cb_live_/);
      const snippet = await keys.firstCall.innerText();
      expect(snippet).toContain(projectUuid);
      expect(snippet).toContain(`apikey: ${secret}`);
      expect(await keys.rows.count()).toBe(1);
      expect(await keys.rows.first().innerText()).toMatch(/live[\s\S]*active/);
      await consoleScreenshot(page, 'keys');

      // The requester's program adds a task with that key, naming the receiver as callback.
      const image = h.images.url(IMAGE.width, IMAGE.height, 'street');
      const first = await addTask(h.baseUrl, secret, { project_uuid: projectUuid, external_image_url: image, callback_url: receiver.url });
      const tasks = new TaskListPage(page);
      await tasks.open(projectUuid);
      expect(await tasks.uuids()).toEqual([first]);
      expect(await tasks.row(first).innerText()).toMatch(/outstanding[\s\S]*0 \/ 3/);

      // Three workers finish it through the worker API.
      for (let i = 0; i < 3; i++) {
        const worker = await signUpWorker(h.baseUrl, `Worker ${i + 1}`);
        expect(await workOnNextTask(h.baseUrl, worker, projectUuid, workerBoxes(i), IMAGE)).toBe(first);
      }
      // Two more tasks that nobody works on.
      const rest = [
        await addTask(h.baseUrl, secret, { project_uuid: projectUuid, external_image_url: image, substitutions: { place: 'the car park' } }),
        await addTask(h.baseUrl, secret, { project_uuid: projectUuid, external_image_url: image }),
      ];

      // The key's last use is listed now (the secret itself never again).
      await keys.open();
      await expectEventually(async () => !/never/.test(await keys.rows.first().innerText()), "the key's last use");
      expect(await page.getByTestId('new-key').count()).toBe(0);

      await tasks.open(projectUuid);
      expect(await tasks.uuids()).toEqual([rest[1], rest[0], first]);
      await tasks.filter('Complete');
      await expectEventually(async () => (await tasks.uuids()).join() === first, 'only the finished task under Complete');
      expect(await tasks.row(first).innerText()).toMatch(/complete[\s\S]*3 \/ 3/);
      await tasks.filter('Outstanding');
      await expectEventually(async () => (await tasks.uuids()).length === 2, 'the two open tasks under Outstanding');
      await tasks.filter('All tasks');
      await expectEventually(async () => (await tasks.uuids()).length === 3, 'all three tasks');
      await consoleScreenshot(page, 'tasks');

      // The task page draws the consensus: one car and one person, each drawn by all three workers.
      await tasks.row(first).getByRole('link').click();
      const task = new TaskDetailPage(page);
      await task.consensusRows.first().waitFor();
      expect(await task.consensusRows.allInnerTexts()).toEqual([
        expect.stringMatching(/^\s*car\s+193, 398\s+226 × 138\s+3 of 3\s+0\.9\d\d$/),
        expect.stringMatching(/^\s*person\s+704, 325\s+32 × 190\s+3 of 3\s+0\.9\d\d$/),
      ]);
      await task.annotator.waitReady();
      expect(await task.annotator.boxItems.count()).toBe(2);
      // A viewer draws nothing: a legend of the labels, and no label picker.
      expect(await page.getByTestId('annotator-label-legend').innerText()).toMatch(/car[\s\S]*person/);
      expect(await page.locator('[data-testid^="annotator-label-"]:not([data-testid="annotator-label-legend"])').count()).toBe(0);
      expect(await page.getByText('Label for new boxes').count()).toBe(0);
      // Polled, as the other pixel checks are: the layers paint on an animation frame, and the page's
      // later content (each worker's agreement) can move the stage after its geometry was read.
      await expectEventually(() => task.boxDrawnIn(CAR_CONSENSUS, CAR.color), 'the consensus car drawn');
      await expectEventually(() => task.boxDrawnIn(PERSON_CONSENSUS, PERSON.color), 'the consensus person drawn');
      // The third worker's stray box shows only when that worker's layer is switched on.
      expect(await task.workerToggles.count()).toBe(3);
      const strayColor = '#4363d8'; // the third worker's colour on the task page
      expect(await task.boxDrawnIn(STRAY, strayColor)).toBe(false);
      await task.workerToggles.nth(2).getByRole('checkbox').check();
      await expectEventually(() => task.boxDrawnIn(STRAY, strayColor), "the third worker's own box to be drawn");
      await consoleScreenshot(page, 'task');
      // The box list is reached from the keyboard, and its buttons show the app's focus ring.
      await page.getByRole('button', { name: 'Keyboard shortcuts' }).focus();
      await page.keyboard.press('Tab');
      const focusedBox = page.locator(':focus');
      expect(await focusedBox.textContent()).toMatch(/^Select box 1: /);
      expect(await focusedBox.evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');

      // The completion reached the receiver, and the log shows the delivery with its reply.
      await expectEventually(async () => receiver.completions().length === 1, 'the task_completed webhook at the receiver', undefined, 20_000);
      expect(receiver.completions()[0].json.data?.task?.task_uuid).toBe(first);
      const hooks = new WebhooksPage(page);
      await hooks.open();
      const delivered = await hooks.waitForEvent('delivered');
      expect(await hooks.endpoints.first().innerText()).toMatch(new RegExp(`${receiver.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}[\\s\\S]*confirmed`));
      await delivered.locator('summary').click();
      const attempt = delivered.getByTestId('attempt-row').first();
      expect(await attempt.innerText()).toMatch(/200[\s\S]*ms[\s\S]*\{"received":true\}/);
      expect(await delivered.innerText()).toContain(first);
      await consoleScreenshot(page, 'webhooks');

      // Redeliver: the receiver gets the same event again (same webhook-id), and the log a second attempt.
      await delivered.getByTestId('redeliver').click();
      await expectEventually(async () => receiver.completions().length === 2, 'the redelivered webhook', undefined, 20_000);
      expect(receiver.completions()[1].headers['webhook-id']).toBe(receiver.completions()[0].headers['webhook-id']);
      await expectEventually(
        async () => {
          await page.getByTestId('refresh-events').click();
          const row = hooks.events.first();
          if (!(await row.locator('details').evaluate((d) => (d as HTMLDetailsElement).open))) await row.locator('summary').click();
          return (await row.getByTestId('attempt-row').count()) === 2;
        },
        'a second attempt in the log',
      );

      // A receiver that refuses fails the event; once it is back, "Redeliver all failed events" sends it again.
      receiver.refusing = true;
      await hooks.events.first().getByTestId('redeliver').click();
      await expectEventually(async () => receiver.completions().length === 3, 'the refused delivery', undefined, 20_000);
      // The filter's own answer first: the failed event is already in the unfiltered list, and the filter
      // (now in the address) reads the log again, so a count taken before that answer saw the list between.
      const filtered = page.waitForResponse((res) => res.url().includes('/api/console/webhooks/events') && res.url().includes('state=failed'));
      await page.getByLabel('Show').selectOption('failed');
      await filtered;
      const failed = await hooks.waitForEvent('failed');
      expect(await hooks.events.count()).toBe(1);
      expect(await failed.innerText()).toMatch(/last 410/);
      receiver.refusing = false;
      await page.getByTestId('redeliver-failed').click();
      expect(await page.getByRole('status').filter({ hasText: 'queued for delivery again' }).innerText()).toBe('1 failed event is queued for delivery again.');
      await expectEventually(async () => receiver.completions().length === 4, 'the bulk redelivery', undefined, 20_000);
      expect(new Set(receiver.completions().map((d) => d.headers['webhook-id'])).size).toBe(1);
      await page.getByLabel('Show').selectOption('');

      // Rotating the signing secret, after a confirmation: a new secret, and the page says until when the old one still signs.
      await page.getByRole('button', { name: 'Show' }).click();
      const oldSecret = await page.getByTestId('signing-secret').innerText();
      expect(oldSecret).toMatch(/^whsec_/);
      expect(await page.getByTestId('previous-secret').count()).toBe(0);
      await page.getByTestId('rotate-secret').click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByTestId('previous-secret').waitFor();
      expect(await page.getByTestId('previous-secret').innerText()).toMatch(/previous secret also signs every delivery until/);
      const newSecret = await page.getByTestId('signing-secret').innerText();
      expect(newSecret).toMatch(/^whsec_/);
      expect(newSecret).not.toBe(oldSecret);

      // Progress and money, then cancel the rest: the dialog states how many and how much.
      const overview = new ProjectOverviewPage(page);
      await overview.open(projectUuid);
      expect(await overview.stats()).toEqual({
        total: '3',
        complete: '1',
        outstanding: '2',
        cancelled: '0',
        submissions: '3',
        paid: '$0.75',
        committed: '$1.50',
      });
      expect(await page.getByTestId('daily-chart').getAttribute('aria-label')).toMatch(/3 tasks created, 1 completed/);
      await consoleScreenshot(page, 'project');
      const summary = await overview.openCancelDialog();
      expect(summary).toMatch(/2 tasks will leave[\s\S]*\$1\.50 of reward/);
      await h.screenshot(page, 'console-cancel-dialog');
      const result = await overview.confirmCancel();
      expect(result).toMatch(/Cancelled 2 tasks; 0 active checkouts ended; \$1\.50 of reward will not be spent/);
      await expectEventually(async () => (await overview.stat('cancelled').innerText()) === '2', 'the cancelled count to update');
      expect(await overview.stat('outstanding').innerText()).toBe('0');
      expect(await overview.stat('committed').innerText()).toBe('$0.00');
      await tasks.open(projectUuid, 'cancelled');
      await expectEventually(async () => (await tasks.uuids()).sort().join() === [...rest].sort().join(), 'both tasks under Cancelled');

      // Results download as JSON and COCO, with the session.
      const json = await page.request.get(`/api/console/projects/${projectUuid}/results?format=json`);
      expect(json.status()).toBe(200);
      const entries = (await json.json()).data;
      expect(entries).toHaveLength(1);
      expect(entries[0].annotations).toHaveLength(2);
      const coco = await (await page.request.get(`/api/console/projects/${projectUuid}/results?format=coco`)).json();
      expect((coco.data ?? coco).annotations).toHaveLength(2);
      await overview.open(projectUuid);
      expect(await page.getByTestId('download-json').getAttribute('href')).toBe(`/api/console/projects/${projectUuid}/results?format=json`);

      // Settings: the API's refusal shows under the label it names; a good change is saved and shown.
      await page.getByRole('link', { name: 'Settings', exact: true }).click();
      await form.field('Display name').waitFor();
      expect(await form.field('Display name').inputValue()).toBe('Find cars and people');
      await form.setLabel(2, 'car', '#2ca02c');
      await page.getByRole('button', { name: 'Save changes' }).click();
      const labelError = page.getByTestId('labels-editor').locator('.field-error');
      await labelError.waitFor();
      expect(await labelError.innerText()).toContain('"car" appears twice');
      await consoleScreenshot(page, 'project-settings');
      await form.setLabel(2, 'bicycle', '#2ca02c');
      await form.field('Display name').fill('Find cars, people and bicycles');
      await page.getByRole('button', { name: 'Save changes' }).click();
      await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
      await page.getByRole('heading', { name: 'Find cars, people and bicycles', level: 1 }).waitFor();

      // The project list sums it up.
      await page.goto('/console');
      const card = page.getByTestId('project-card');
      await card.waitFor();
      expect(await card.innerText()).toMatch(/Find cars, people and bicycles[\s\S]*Complete\s+1[\s\S]*Outstanding\s+0[\s\S]*Cancelled\s+2[\s\S]*Submissions\s+3[\s\S]*Paid\s+\$0\.75[\s\S]*Committed\s+\$0\.00/);
      await consoleScreenshot(page, 'projects');
    } finally {
      await receiver.stop();
    }
  });

  it('draws a task’s boxes on the image this browser loaded, when the workers’ browsers reported another size', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { image: IMAGE });
    // The worker's browser got a copy twice as large (an image service that resizes per client): its
    // box is in that copy's pixels, and so is the task's consensus (its frame, 1600 x 1200).
    const onImage: Box = { label: 'car', center_x: 150, center_y: 120, width: 100, height: 60 };
    const inFrame: Box = { label: 'car', center_x: 300, center_y: 240, width: 200, height: 120 };
    const worker = await signUpWorker(h.baseUrl, 'Wide Screen');
    await workOnNextTask(h.baseUrl, worker, projectUuid, [inFrame], { width: IMAGE.width * 2, height: IMAGE.height * 2 });

    const page = await h.newPage({ as: requester });
    await page.goto(`/console/projects/${projectUuid}/tasks/${taskUuids[0]}`);
    const task = new TaskDetailPage(page);
    await task.consensusRows.first().waitFor();
    // The table gives the API's numbers, in the frame's pixels, and says which frame that is.
    expect(await task.consensusRows.first().innerText()).toMatch(/^\s*car\s+300, 240\s+200 × 120\s+1 of 1/);
    await task.annotator.waitReady();
    expect(await page.getByTestId('task-frame').innerText()).toBe('1600 × 1200 as the workers saw it (boxes in its pixels); 800 × 600 here');
    // The box is drawn around the same part of the picture the worker boxed, not at twice its place.
    const carColor = '#e4572e'; // LABELS' car
    await expectEventually(() => task.boxDrawnIn(onImage, carColor), 'the consensus box scaled onto the loaded image');
    expect(await task.boxDrawnIn(inFrame, carColor)).toBe(false);
    await task.workerToggles.first().getByRole('checkbox').check();
    await expectEventually(() => task.boxDrawnIn(onImage, WORKER_COLOR_1), 'the worker’s own box, scaled too');
  });

  it('keeps every secret made during a visit on screen, each with its own copy button, until it is dismissed', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 0 });
    const page = await h.newPage({ as: requester });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: h.baseUrl });
    const keys = new ApiKeysPage(page);
    await keys.open();
    const test = await keys.create('test');
    const live = await keys.create('live');
    expect(test).toMatch(/^cb_test_/);
    expect(live).toMatch(/^cb_live_/);

    // The second key did not replace the first one's secret: both are shown, the newest first.
    expect(await keys.newKeys.getByTestId('new-key-secret').allInnerTexts()).toEqual([live, test]);
    for (const [i, secret] of [live, test].entries()) {
      await keys.newKeys.nth(i).getByRole('button', { name: /^Copy API key/ }).click();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    }
    expect(await keys.firstCall.innerText()).toContain(`apikey: ${live}`);

    // Each goes only when the requester says it is saved.
    await keys.newKeys.nth(0).getByRole('button', { name: 'I have saved it' }).click();
    await expectEventually(async () => (await keys.newKeys.count()) === 1, 'one secret left on screen');
    expect(await keys.newKeys.getByTestId('new-key-secret').innerText()).toBe(test);
  });

  it('fits a phone screen and can be used from the keyboard', async () => {
    const h = harness();
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 27 });
    const page = await h.newPage({ as: requester, viewport: { width: 390, height: 844 } });

    // No console page scrolls sideways at phone width (wide tables scroll inside their own box).
    const pages = [
      '/console',
      '/console/projects/new',
      `/console/projects/${projectUuid}`,
      `/console/projects/${projectUuid}/tasks`,
      `/console/projects/${projectUuid}/settings`,
      `/console/projects/${projectUuid}/tasks/${taskUuids[0]}`,
      `/console/projects/${projectUuid}/workers`,
      '/console/keys',
      '/console/webhooks',
      '/console/workers',
    ];
    for (const path of pages) {
      await page.goto(path);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect({ path, width }).toEqual({ path, width: 390 });
    }
    await page.goto(`/console/projects/${projectUuid}`);
    await page.getByTestId('progress-stats').waitFor();
    await consoleScreenshot(page, 'phone-project');

    // Keys from the keyboard: create a test key, reach its copy button, revoke it through the dialog.
    const keys = new ApiKeysPage(page);
    await keys.open();
    await tabTo(page, /^Create test key$/);
    await page.keyboard.press('Enter');
    await page.getByTestId('new-key-secret').waitFor();
    expect(await page.getByTestId('new-key-secret').innerText()).toMatch(/^cb_test_/);
    await keys.rows.filter({ hasText: 'cb_test_' }).waitFor(); // the list reloads after the key is made
    await tabTo(page, /^Copy API key/);
    await tabTo(page, /^Revoke key cb_test_/);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    // A destructive dialog starts on its safe button, and Escape leaves everything as it was.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await keys.rows.filter({ hasText: 'cb_test_' }).innerText()).toContain('active');
    await tabTo(page, /^Revoke key cb_test_/);
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expectEventually(async () => /revoked/.test(await keys.rows.filter({ hasText: 'cb_test_' }).innerText()), 'the test key to show as revoked');
    expect(await keys.rows.filter({ hasText: 'cb_live_' }).innerText()).toContain('active');

    // The tasks of a project, reached and filtered without a mouse.
    await page.goto(`/console/projects/${projectUuid}`);
    await page.getByTestId('progress-stats').waitFor();
    await tabTo(page, /^Tasks$/);
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/console/projects/${projectUuid}/tasks`);
    await page.getByTestId('task-table').waitFor();
    await tabTo(page, /All tasks/);
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('SELECT');
    await page.keyboard.press('ArrowDown'); // Outstanding
    await expectEventually(async () => page.url().endsWith('?state=incomplete'), 'the filter in the address', async () => page.url());
    // 25 a page, newest first: the second page holds the two oldest.
    const tasks = new TaskListPage(page);
    // All 27 tasks are outstanding, so "All tasks" shows the same rows: only the caption tells the lists
    // apart (the address changes before the page renders the new filter).
    await expectEventually(
      async () => {
        const uuids = await tasks.uuids();
        return /^Outstanding tasks, newest first, page 1$/.test(await tasks.caption()) && uuids.length === 25 && uuids[0] === taskUuids[26];
      },
      'a first page of 25 outstanding tasks, the newest first',
      async () => `${await tasks.caption()}: ${(await tasks.uuids()).join()}`,
    );
    await tabTo(page, /^Older/);
    await page.keyboard.press('Enter');
    await expectEventually(async () => (await tasks.uuids()).join() === [taskUuids[1], taskUuids[0]].join(), 'the two oldest tasks on page 2');
    await page.getByRole('button', { name: '← Newer' }).click();
    await expectEventually(async () => (await tasks.uuids()).length === 25, 'page 1 again');
  });
});
