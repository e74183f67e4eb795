import type { Page } from 'playwright-core';
import { expectEventually } from '../../support/expect-eventually';
import { holdNextRequest, loseNextAnswer } from '../../support/hold-request';
import { useHarness, type Harness } from '../../support/harness';
import { TaskPage } from '../../support/pages/task.page';
import { aProjectWithTasks, aWorker, aWorkerOnATask, shortenNextLease } from '../../support/scenario';

const harness = useHarness();

/** A project with two tasks, a worker, and that worker's browser page on one of them, with one box drawn. */
async function aWorkerWithABox() {
  const h = harness();
  const { worker, page, task } = await aWorkerOnATask(h, { tasks: 2 });
  await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
  return { h, worker, page, task };
}

/**
 * Lets the next submit reach the server (which takes it) and holds its reply: `reached` resolves once the
 * server has answered, `release()` hands the reply to the page.
 */
async function holdNextSubmitReply(page: Page): Promise<{ reached: Promise<number>; release: () => Promise<void> }> {
  let answered!: (status: number) => void;
  const reached = new Promise<number>((resolve) => (answered = resolve));
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  let handedOver!: () => void;
  const delivered = new Promise<void>((resolve) => (handedOver = resolve));
  await page.route(
    '**/api/work/checkouts/*/submit',
    async (route) => {
      try {
        const response = await route.fetch();
        answered(response.status());
        await released;
        await route.fulfill({ response });
      } finally {
        handedOver();
      }
    },
    { times: 1 },
  );
  return {
    reached,
    release: async () => {
      letGo();
      await delivered;
    },
  };
}

/** POSTs to /api/work/checkouts this page makes from now on. */
function checkoutsPosted(page: Page): string[] {
  const posted: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/work/checkouts') posted.push(request.url());
  });
  return posted;
}

/** Lets the page run what a reply it just got sets off (a check-out would be sent at once). */
const settle = (page: Page) => page.waitForTimeout(1000);

describe('while a submit is in flight', () => {
  it('checks out no new task once the worker has left the page', async () => {
    const { h, worker, page, task } = await aWorkerWithABox();
    const reply = await holdNextSubmitReply(page);
    await task.submit();
    expect(await reply.reached).toBe(201);

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Work' }).click();
    await page.getByRole('heading', { name: 'Find work' }).waitFor();
    const posted = checkoutsPosted(page);
    await reply.release();
    await settle(page);

    expect(posted).toEqual([]);
    const active = await h.api.request({ method: 'GET', url: '/api/work/checkouts', headers: worker.auth });
    expect(active.status).toBe(200);
    expect(active.body.data).toEqual([]);
  });

  it('takes no new box: the editor is read-only until the answer, and the submit counts the boxes drawn before it', async () => {
    const { page, task } = await aWorkerWithABox();
    const reply = await holdNextSubmitReply(page);
    await task.submit();
    expect(await reply.reached).toBe(201);
    expect(await task.submitButton.innerText()).toBe('Submitting…');

    await task.annotator.drag(0.6, 0.6, 0.8, 0.8);
    await page.waitForTimeout(300);
    await task.annotator.expectBoxes(1);

    await reply.release();
    await task.notice.getByText('Submitted 1 box. You earned $0.25.').waitFor();
    await task.waitForTask();
    await task.annotator.expectBoxes(0);
  });
});

describe('a submit that never gets an answer', () => {
  it('is given up after 20 s as unanswered, so Submit works again, and the second submit is taken once', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 2 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    // The page's timers, to move past the 20 s without waiting them out.
    await page.clock.install();
    const task = await new TaskPage(page).goto(project.projectUuid);
    const checkoutId = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    // The submit reaches the server, which takes it; its answer never comes back (a connection that died quietly).
    let letGo!: () => void;
    const hung = new Promise<void>((resolve) => (letGo = resolve));
    const reached = new Promise<void>((resolve) =>
      void page.route(
        '**/api/work/checkouts/*/submit',
        async (route) => {
          await route.fetch();
          resolve();
          await hung;
          await route.abort('failed').catch(() => undefined);
        },
        { times: 1 },
      ),
    );
    await task.submit();
    await reached;
    expect(await task.submitButton.innerText()).toBe('Submitting…');

    await page.clock.runFor(21_000);
    await task.errors.getByText('No answer from the server').waitFor();
    expect(await task.submitButton.isEnabled()).toBe(true);
    await task.submit();
    await task.notice.getByText('Submitted 1 box. You earned $0.25.').waitFor();
    letGo();
    const [row] = await h.api.db.query('SELECT count(*)::int AS n FROM submissions WHERE checkout_id = $1', [checkoutId]);
    expect(row.n).toBe(1);
  });
});

/**
 * Opens the worker's page on a task whose lease runs out `leaseMs` after checkout (shorter than any project
 * allows), with one box drawn; returns the lease's id.
 */
async function aWorkerOnAShortLease(leaseMs: number) {
  const h = harness();
  const project = await aProjectWithTasks(h, { tasks: 2 });
  const worker = await aWorker(h);
  const page = await h.newPage({ as: worker });
  await shortenNextLease(h, page, leaseMs);
  const task = await new TaskPage(page).goto(project.projectUuid);
  await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
  return { h, worker, page, task, checkoutId: await task.checkoutId() };
}

/** The paths of the POSTs to …/release this page makes from now on. */
function releasesPosted(page: Page): string[] {
  const posted: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/release')) posted.push(request.url());
  });
  return posted;
}

async function leaseState(h: Harness, checkoutId: string): Promise<{ state: string; submissions: number }> {
  const [row] = await h.api.db.query(
    'SELECT c.state, (SELECT count(*) FROM submissions s WHERE s.checkout_id = c.id)::int AS submissions FROM checkouts c WHERE c.id = $1',
    [checkoutId],
  );
  return row;
}

describe('a submit when the countdown ends', () => {
  it('a submit in flight when the countdown ends is neither given back nor reported lost', async () => {
    // The page ends the lease 2 s before the server does (SUBMIT_MARGIN_MS): a submit sent in its last
    // second, on a slow line, reaches the server after the page's deadline and before the server's.
    const { h, page, task, checkoutId } = await aWorkerOnAShortLease(9_000);
    const releases = releasesPosted(page);
    await page.route(
      '**/api/work/checkouts/*/submit',
      async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1200));
        await route.continue();
      },
      { times: 1 },
    );
    await expectEventually(async () => (await task.countdown.innerText()).includes('0:01'), 'the countdown to reach its last second', undefined, 8000);
    await task.submit();

    await task.notice.getByText('Submitted 1 box. You earned $0.25.').waitFor({ timeout: 6000 });
    expect(await task.expired.count()).toBe(0);
    expect(releases).toEqual([]);
    expect(await leaseState(h, checkoutId)).toEqual({ state: 'submitted', submissions: 1 });
    expect(await task.draftKeys()).toEqual([]);
  });

  it('after a submit without an answer, the countdown ending asks the server, which has it: submitted, not lost', async () => {
    const { h, page, task, checkoutId } = await aWorkerOnAShortLease(9_000);
    const releases = releasesPosted(page);
    // The submit reaches the server, which takes it; its reply is lost on the way back.
    await loseNextAnswer(page, '**/api/work/checkouts/*/submit');
    await task.submit();
    await task.errors.getByText('No answer from the server').waitFor();

    // The countdown runs out with the outcome unknown: the page reads the lease's state back.
    await task.notice.getByText('Your submit arrived: the task was submitted.').waitFor({ timeout: 12_000 });
    expect(await task.expired.count()).toBe(0);
    expect(releases).toEqual([]);
    expect(await leaseState(h, checkoutId)).toEqual({ state: 'submitted', submissions: 1 });
    expect(await task.draftKeys()).toEqual([]);
    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);
  });

  it("after a gateway's 502 to a submit the server took, the page is unsure, not refused, and the countdown's end finds it submitted", async () => {
    const { h, page, task, checkoutId } = await aWorkerOnAShortLease(9_000);
    const releases = releasesPosted(page);
    // The submit reaches the server, which takes it; a proxy in front of it answers with its own error page.
    await page.route(
      '**/api/work/checkouts/*/submit',
      async (route) => {
        await route.fetch();
        await route.fulfill({ status: 502, contentType: 'text/html', body: '<html><body><h1>502 Bad Gateway</h1></body></html>' });
      },
      { times: 1 },
    );
    await task.submit();
    await task.errors.getByText('No answer from the server').waitFor();
    expect(await task.errors.getByText('The task was not submitted').count()).toBe(0);

    await task.notice.getByText('Your submit arrived: the task was submitted.').waitFor({ timeout: 12_000 });
    expect(await task.expired.count()).toBe(0);
    expect(releases).toEqual([]);
    expect(await leaseState(h, checkoutId)).toEqual({ state: 'submitted', submissions: 1 });
    expect(await task.draftKeys()).toEqual([]);
    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/status of 502/);
  });
});

describe('a submit that fails', () => {
  // A busy button is aria-disabled, not disabled: Chromium takes the focus off a button that becomes
  // disabled and leaves it on the page's body, where the error of the failed try would find it.
  it('keeps the focus on Submit while it is out and beside the error after a 503', async () => {
    const { h, page, task } = await aWorkerWithABox();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName);
    const request = await holdNextRequest(page, (url) => /^\/api\/work\/checkouts\/[^/]+\/submit$/.test(url.pathname));
    await task.submitButton.focus();
    await page.keyboard.press('Enter');
    const held = await request.reached;
    expect(await task.submitButton.innerText()).toBe('Submitting…');
    expect(await task.submitButton.getAttribute('aria-disabled')).toBe('true');
    expect(await focused()).toBe('submit-task');

    await held.fulfill({ status: 503, json: { errors: [{ field: 'root', detail: 'the database is busy; retry in a few seconds' }] } });
    await task.errors.waitFor();
    expect(await task.submitButton.innerText()).toBe('Submit 1 box');
    expect(await focused()).toBe('submit-task');
    h.takeConsoleErrors(); // Chromium logs the 503 it was given
  });
});
