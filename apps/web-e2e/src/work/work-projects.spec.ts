import type { Page } from 'playwright-core';
import { useHarness } from '../../support/harness';
import { LoginPage } from '../../support/pages/login.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { TaskPage } from '../../support/pages/task.page';
import { addTask } from '../../support/server/api-server';
import { aProjectWithTasks, aWorker, aWorkerOnATask, expireLease, PASSWORD } from '../../support/scenario';

const harness = useHarness();

async function logOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.waitForURL(/\/login/);
}

describe('the work list', () => {
  it('asks a signed-out worker to log in, then lists projects with reward, time allowed and tasks left', async () => {
    const h = harness();
    const cars = await aProjectWithTasks(h, { tasks: 3, displayName: 'Find the cars', reward: 25, allowedSeconds: 600 });
    await aProjectWithTasks(h, {
      tasks: 1,
      displayName: 'Count the cyclists',
      description: 'Box every bicycle and its rider.',
      reward: 40,
      allowedSeconds: 90,
    });
    const worker = await aWorker(h);
    const page = await h.newPage();

    await new LoginPage(page).logInVia('/work', worker.email, PASSWORD);
    const list = new WorkProjectsPage(page);
    await list.projects.first().waitFor();

    const card = list.project('Find the cars');
    expect(await card.innerText()).toEqual(expect.stringContaining('Draw a box around every car'));
    expect(await card.getByTestId('tasks-left').innerText()).toBe('3');
    expect(await card.innerText()).toMatch(/\$0\.25[\s\S]*10 min/);
    expect(await list.project('Count the cyclists').innerText()).toMatch(/\$0\.40[\s\S]*1 min 30 s[\s\S]*1/);
    // Highest reward first, as the API orders them.
    expect(await list.projects.locator('h3').allInnerTexts()).toEqual(['Count the cyclists', 'Find the cars']);
    expect(await list.earnings.innerText()).toMatch(/\$0\.00[\s\S]*0 tasks/);
    await h.screenshot(page, 'work-projects');

    await list.start('Find the cars');
    await page.waitForURL(`**/work/${cars.projectUuid}`);
    await page.getByTestId('task-workspace').waitFor();
  });

  it('gives the range of the rewards of a project whose tasks pay differently, since the oldest goes out first', async () => {
    const h = harness();
    const mixed = await aProjectWithTasks(h, { tasks: 1, displayName: 'Mixed pay', reward: 5 });
    const added = await addTask(h.api, mixed.liveKey, { project_uuid: mixed.projectUuid, external_image_url: h.images.url(960, 640, 'rich'), reward: 100 });
    expect(added.status).toBe(201);
    await aProjectWithTasks(h, { tasks: 2, displayName: 'Flat pay', reward: 30 });
    const page = await h.newPage({ as: await aWorker(h) });
    const list = await new WorkProjectsPage(page).goto();
    await list.projects.first().waitFor();
    expect(await list.project('Mixed pay').getByTestId('project-reward').innerText()).toBe('$0.05–$1.00');
    expect(await list.project('Flat pay').getByTestId('project-reward').innerText()).toBe('$0.30');
  });

  it('signs up, is keyboard reachable at phone width, and logs out', async () => {
    const h = harness();
    const page = await h.newPage({ viewport: { width: 390, height: 844 } });
    await page.goto('/work');
    await page.waitForURL(/\/login/);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Your name').fill('Phone Person');
    await page.getByLabel('Email').fill(`phone-${Date.now()}@example.com`);
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create an account' }).click();
    // The API's field error is shown beside the field.
    await page.getByText('must be at least 8 characters').waitFor();
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.waitForURL((url) => url.pathname === '/work');
    await page.getByRole('heading', { name: 'Find work' }).waitFor();
    // Workers are told what a requester can learn of them from the task images.
    expect(await page.getByTestId('image-privacy').innerText()).toMatch(/sees your IP address.*never see your name or email/s);

    // Nothing overflows sideways at phone width.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // From a fresh load the skip link comes first, then the top bar; focus is visible.
    await page.reload();
    await page.getByRole('heading', { name: 'Find work' }).waitFor();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    const focused = page.locator(':focus');
    expect(await focused.innerText()).toBe('Console');
    expect(await focused.evaluate((el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    expect((await h.api.request({ method: 'GET', url: '/api/session/me' })).status).toBe(401);
  });

  it('reports boxes of a lease that ran out, and sends a worker whose session ended to log in', async () => {
    const h = harness();
    const { project, worker, page, task } = await aWorkerOnATask(h, { tasks: 2, displayName: 'Parking lot' });
    await task.annotator.drawBox(0.1, 0.1, 0.3, 0.3);
    await task.annotator.drawBox(0.5, 0.5, 0.7, 0.7);
    await expireLease(h, await task.checkoutId());

    const list = await new WorkProjectsPage(page).goto();
    expect(await page.getByTestId('lost-drafts').innerText()).toContain('the 2 boxes drawn on it were not sent');

    // The session ends elsewhere (another tab logs out): the next call answers 401 and the app asks to log in.
    expect((await h.api.request({ method: 'POST', url: '/api/session/logout', headers: worker.auth })).status).toBe(200);
    await list.start('Parking lot');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === `/work/${project.projectUuid}`);
    await page.getByLabel('Email').fill(worker.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL((url) => url.pathname === `/work/${project.projectUuid}`);
    await task.waitForTask();
  });

  it('keeps each worker\'s drafts to themselves on a browser two workers share', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 2, displayName: 'Shared desk' });
    const ann = await aWorker(h, 'Ann');
    const ben = await aWorker(h, 'Ben');
    const page = await h.newPage();
    const task = new TaskPage(page);
    await new LoginPage(page).logInVia(`/work/${project.projectUuid}`, ann.email, PASSWORD);
    await task.waitForTask();
    const annCheckout = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    const drawn = await task.annotator.boxes();
    await logOut(page);

    // Ben's work list neither reports nor drops Ann's draft: her lease is not his to judge.
    await new LoginPage(page).logInVia('/work', ben.email, PASSWORD);
    await new WorkProjectsPage(page).project('Shared desk').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.getByTestId('lost-drafts').count()).toBe(0);
    expect(await task.draftKeys()).toEqual([`crowdbox:draft:${ann.userId}:${annCheckout}`]);
    await logOut(page);

    await new LoginPage(page).logInVia(`/work/${project.projectUuid}`, ann.email, PASSWORD);
    await task.waitForTask();
    expect(await task.checkoutId()).toBe(annCheckout);
    await page.getByTestId('draft-restored').waitFor();
    expect(await task.annotator.boxes()).toEqual(drawn);
  });
});

describe('stopping work', () => {
  it('"Submit and stop" submits and goes back to the work list without taking another task', async () => {
    const h = harness();
    const { worker, page, task } = await aWorkerOnATask(h, { tasks: 3, displayName: 'Last one for today' });
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    const checkoutsPosted: string[] = [];
    page.on('request', (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/work/checkouts' && checkoutsPosted.push(r.url()));

    await page.getByRole('button', { name: 'Submit and stop' }).click();
    await page.waitForURL((url) => url.pathname === '/work');
    const notice = page.getByTestId('work-notice');
    await notice.getByText('Submitted 1 box. You earned $0.25.').waitFor();
    expect(await page.getByTestId('work-announcer').textContent()).toBe('Submitted 1 box. You earned $0.25.');
    expect(await page.getByTestId('active-checkout').count()).toBe(0);
    expect(await page.getByTestId('earnings').innerText()).toMatch(/\$0\.25[\s\S]*1 task/);
    expect(checkoutsPosted).toEqual([]);
    const active = await h.api.request({ method: 'GET', url: '/api/work/checkouts', headers: worker.auth });
    expect(active.body.data).toEqual([]);
    expect(await task.draftKeys()).toEqual([]);

    // The notice was for that moment: a reload does not say it again.
    await page.reload();
    await page.getByRole('heading', { name: 'Find work' }).waitFor();
    await new WorkProjectsPage(page).project('Last one for today').waitFor();
    expect(await notice.count()).toBe(0);
  });

  it('gives back a task in progress from the work list, asking first when boxes are drawn on it', async () => {
    const h = harness();
    const { page, task } = await aWorkerOnATask(h, { tasks: 2, displayName: 'Give it back' });
    const checkoutId = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);

    await new WorkProjectsPage(page).goto();
    const card = page.getByTestId('active-checkout');
    expect(await card.innerText()).toContain('1 box drawn on this device.');
    const giveBack = card.getByRole('button', { name: 'Give back', exact: true });
    await giveBack.click();
    const confirm = page.getByTestId('give-back-confirm');
    expect(await confirm.innerText()).toContain('Give back this task and throw away your 1 box?');
    // Escape keeps the task, and the focus returns to Give back.
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Give back');
    expect((await h.api.db.query('SELECT state FROM checkouts WHERE id = $1', [checkoutId]))[0].state).toBe('active');

    await giveBack.click();
    await page.getByRole('button', { name: 'Give back and throw away 1 box' }).click();
    await card.waitFor({ state: 'detached' });
    const notice = page.getByTestId('work-notice');
    expect(await notice.innerText()).toContain('Task given back. It went to other workers.');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('work-notice');
    expect((await h.api.db.query('SELECT state FROM checkouts WHERE id = $1', [checkoutId]))[0].state).toBe('released');
    expect(await task.draftKeys()).toEqual([]);
    expect(await page.getByTestId('lost-drafts').count()).toBe(0);

    // Without boxes drawn, Give back gives back at once.
    await new WorkProjectsPage(page).start('Give it back');
    await task.waitForTask();
    const second = await task.checkoutId();
    await new WorkProjectsPage(page).goto();
    await page.getByTestId('active-checkout').getByRole('button', { name: 'Give back', exact: true }).click();
    await page.getByTestId('active-checkout').waitFor({ state: 'detached' });
    expect((await h.api.db.query('SELECT state FROM checkouts WHERE id = $1', [second]))[0].state).toBe('released');
  });
});
