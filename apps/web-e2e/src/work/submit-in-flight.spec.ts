import type { Page } from 'playwright-core';
import { useHarness } from '../../support/harness';
import { TaskPage } from '../../support/pages/task.page';
import { aProjectWithTasks, aWorker } from '../../support/scenario';

const harness = useHarness();

/** A project with two tasks, a worker, and that worker's browser page on one of them, with one box drawn. */
async function aWorkerWithABox() {
  const h = harness();
  const project = await aProjectWithTasks(h, { tasks: 2 });
  const worker = await aWorker(h);
  const page = await h.newPage({ as: worker });
  const task = await new TaskPage(page).goto(project.projectUuid);
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
