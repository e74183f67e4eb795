import type { Page } from 'playwright-core';
import { useHarness } from '../../support/harness';
import { aWorkerOnATask } from '../../support/scenario';

const harness = useHarness();

/** Holds the reply to the page's next checkout (POST /api/work/checkouts) until `release()`. */
async function holdNextCheckout(page: Page): Promise<{ release: () => void }> {
  let letGo!: () => void;
  const released = new Promise<void>((resolve) => (letGo = resolve));
  await page.route(
    '**/api/work/checkouts',
    async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    },
    { times: 1 },
  );
  return { release: letGo };
}

const focused = (page: Page) => page.evaluate(() => `${document.activeElement?.tagName} ${document.activeElement?.textContent?.trim() ?? ''}`);

describe('from one task to the next', () => {
  it('announces the submit in one live region that outlives the reload, and puts the focus on the new task’s heading', async () => {
    const h = harness();
    const { page, task } = await aWorkerOnATask(h, { tasks: 3 });
    const announcer = page.getByTestId('lease-announcer');
    expect(await announcer.getAttribute('role')).toBe('status');
    expect(await announcer.innerText()).toBe('');
    const region = await announcer.elementHandle();

    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    const first = await task.checkoutId();
    const checkout = await holdNextCheckout(page);
    await task.submit();
    // While the next task loads, the region is there and empty ...
    await page.getByText('Getting a task…').waitFor();
    expect(await region?.evaluate((el) => el.isConnected && el.textContent)).toBe('');
    checkout.release();

    // ... and the notice arrives in that same region once the next task is shown.
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(first);
    expect(await region?.evaluate((el) => el.isConnected && el.textContent)).toBe('Submitted 1 box. You earned $0.25.');
    expect(await task.notice.getAttribute('role')).toBeNull();
    expect(await focused(page)).toBe('H1 Your task');

    await task.skip();
    await task.notice.getByText('Skipped. The task went back to other workers.').waitFor();
    expect(await focused(page)).toBe('H1 Your task');
    expect(await region?.evaluate((el) => el.isConnected && el.textContent)).toBe('Skipped. The task went back to other workers.');

    // No task left: the focus goes to that screen's heading; the region says the second Skip.
    await task.skip();
    await task.noTask.waitFor();
    expect(await focused(page)).toBe('H1 No more tasks here');
    expect(await region?.evaluate((el) => el.isConnected && el.textContent)).toBe('Skipped. The task went back to other workers.');
  });

  it('takes the editor’s keys on the next task with the focus on its heading: N makes a box, as on the first task', async () => {
    const h = harness();
    const { page, task } = await aWorkerOnATask(h, { tasks: 2 });
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await task.submit();
    await task.notice.getByText('Submitted 1 box. You earned $0.25.').waitFor();
    await task.annotator.waitReady();
    await task.annotator.expectBoxes(0);
    // The heading keeps the focus, so a screen reader says the new task; a key still reaches the editor.
    expect(await focused(page)).toBe('H1 Your task');
    await task.annotator.press('n');
    await task.annotator.expectBoxes(1);
  });

  it('after ✕ on a notice, puts the focus on the screen’s heading, not on the page’s body', async () => {
    const h = harness();
    const { page, task } = await aWorkerOnATask(h, { tasks: 2 });
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await task.submit();
    await task.notice.getByText('Submitted 1 box. You earned $0.25.').waitFor();
    await task.notice.getByRole('button', { name: 'Dismiss message' }).focus();
    await page.keyboard.press('Enter');
    await task.notice.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('H1 Your task');

    // The same on the screen that says there is no task left.
    await task.skip();
    await task.noTask.waitFor();
    await task.notice.getByRole('button', { name: 'Dismiss message' }).focus();
    await page.keyboard.press('Enter');
    await task.notice.waitFor({ state: 'detached' });
    expect(await focused(page)).toBe('H1 No more tasks here');
  });
});
