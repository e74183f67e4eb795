import { expectEventually } from '../../support/expect-eventually';
import { useHarness } from '../../support/harness';
import type { ImageBox } from '../../support/pages/annotator.page';
import { TaskPage } from '../../support/pages/task.page';
import { aProjectWithTasks, aWorker, aWorkerOnATask } from '../../support/scenario';

const harness = useHarness();

const IMAGE = { width: 960, height: 640 };

/** `n` small boxes in a row along the image's bottom edge, clear of where the tests draw. */
function boxesAlongTheBottom(n: number): ImageBox[] {
  return Array.from({ length: n }, (_, i) => ({ label: 'car', center_x: 12 + 24 * (i % 40), center_y: 620 - 24 * Math.floor(i / 40), width: 20, height: 20 }));
}

/** A worker on a task of a project whose tasks take `requiredSubmissions` submissions (100: at most 40 boxes each). */
async function onATaskTaking(requiredSubmissions: number) {
  const h = harness();
  return { h, ...(await aWorkerOnATask(h, { requiredSubmissions })) };
}

describe('the most boxes a task takes', () => {
  it('stops new boxes at the checkout’s max_boxes, says so, shows the count against it, and still edits and submits', async () => {
    const { h, worker, page, task } = await onATaskTaking(100);
    expect(await task.boxCount.innerText()).toBe('0 / 40 boxes');
    expect(await task.boxCount.getAttribute('data-tone')).toBe('ok');

    // 38 boxes drawn before a reload.
    await task.writeDraft(worker.userId, boxesAlongTheBottom(38), IMAGE);
    await page.reload();
    await task.waitForTask();
    await task.annotator.expectBoxes(38);
    expect(await task.boxCount.innerText()).toBe('38 / 40 boxes');
    expect(await task.boxCount.getAttribute('data-tone')).toBe('near');
    expect(await task.annotator.boxLimit.innerText()).toBe('');

    await task.annotator.drawBox(0.1, 0.1, 0.2, 0.2);
    await task.annotator.drawBox(0.3, 0.1, 0.4, 0.2);
    expect(await task.boxCount.innerText()).toBe('40 / 40 boxes · the most this task takes');
    expect(await task.boxCount.getAttribute('data-tone')).toBe('full');
    expect(await task.annotator.boxLimit.getAttribute('role')).toBe('status');
    expect(await task.annotator.boxLimit.innerText()).toBe('This task takes at most 40 boxes. Delete one to draw another.');

    // A drag now draws nothing, and selects nothing either.
    await task.annotator.press('Escape');
    await task.annotator.drag(0.5, 0.1, 0.6, 0.25);
    await page.waitForTimeout(200);
    await task.annotator.expectBoxes(40);
    expect(await task.annotator.stage.getAttribute('data-selected')).toBe('');
    expect(await task.annotator.boxLimit.innerText()).toBe('This task takes at most 40 boxes. Delete one to draw another.');

    // Moving and relabeling still work; deleting makes room for one more.
    await task.annotator.selectBox(39);
    const before = (await task.annotator.boxes())[39];
    await task.annotator.press('ArrowRight');
    await task.annotator.press('2');
    await expectEventually(async () => (await task.annotator.boxes())[39].label === 'person', 'the relabel');
    expect((await task.annotator.boxes())[39]).toEqual({ ...before, label: 'person', center_x: before.center_x + 1 });
    await task.annotator.press('Delete');
    await task.annotator.expectBoxes(39);
    expect(await task.annotator.boxLimit.innerText()).toBe('');
    expect(await task.boxCount.innerText()).toBe('39 / 40 boxes');
    await task.annotator.drawBox(0.5, 0.1, 0.6, 0.25);
    expect(await task.boxCount.innerText()).toBe('40 / 40 boxes · the most this task takes');

    expect(await task.submitButton.innerText()).toBe('Submit 40 boxes');
    const checkoutId = await task.checkoutId();
    await task.submit();
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Submitted 40 boxes.');
    const [sent] = await h.api.db.query('SELECT jsonb_array_length(boxes) AS n FROM submissions WHERE checkout_id = $1', [checkoutId]);
    expect(Number(sent.n)).toBe(40);
  });

  it('takes 500 boxes, LIMITS.boxesPerSubmission, from an API whose checkout says no max_boxes', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h);
    const page = await h.newPage({ as: await aWorker(h) });
    await page.route('**/api/work/checkouts', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      if (body.data) delete body.data.max_boxes;
      await route.fulfill({ response, json: body });
    });
    const task = await new TaskPage(page).goto(project.projectUuid);
    expect(await task.boxCount.innerText()).toBe('0 / 500 boxes');
    await task.annotator.drawBox(0.1, 0.1, 0.2, 0.2);
    await expectEventually(async () => (await task.boxCount.innerText()) === '1 / 500 boxes', 'the count to follow the drawing');
    expect(await task.annotator.root.getByText('Boxes (1 / 500)').count()).toBe(1);
  });

  it('keeps a draft that holds more boxes than the task takes, says how many to delete, and waits with Submit until then', async () => {
    const { h, worker, page, task } = await onATaskTaking(100);
    const checkoutId = await task.checkoutId();
    await task.writeDraft(worker.userId, boxesAlongTheBottom(43), IMAGE);
    await page.reload();
    await task.waitForTask();

    // Every box is kept, on the page and in the draft.
    await task.annotator.expectBoxes(43);
    await page.waitForTimeout(200);
    expect(await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').boxes.length, `crowdbox:draft:${worker.userId}:${checkoutId}`)).toBe(43);
    expect(await task.boxCount.innerText()).toBe('43 / 40 boxes · this task takes at most 40: delete 3 before you submit.');
    expect(await task.boxCount.getAttribute('data-tone')).toBe('over');
    expect(await task.submitButton.isDisabled()).toBe(true);
    // The disabled Submit is described by the count, so a screen reader says why.
    expect(await task.submitButton.getAttribute('aria-describedby')).toBe(await task.boxCount.getAttribute('id'));
    expect(await task.annotator.boxLimit.innerText()).toBe('This task takes at most 40 boxes: delete 3 of these 43.');

    // No drawing adds to them.
    await task.annotator.drag(0.1, 0.1, 0.2, 0.2);
    await page.waitForTimeout(200);
    await task.annotator.expectBoxes(43);

    for (const left of [42, 41]) {
      await task.annotator.selectBox(0);
      await task.annotator.press('Delete');
      await task.annotator.expectBoxes(left);
      expect(await task.submitButton.isDisabled()).toBe(true);
    }
    expect(await task.boxCount.innerText()).toContain('delete 1 before you submit');
    await task.annotator.selectBox(0);
    await task.annotator.press('Delete');
    await task.annotator.expectBoxes(40);
    expect(await task.boxCount.innerText()).toBe('40 / 40 boxes · the most this task takes');
    expect(await task.submitButton.isDisabled()).toBe(false);
    expect(await task.submitButton.getAttribute('aria-describedby')).toBeNull();

    await task.submit();
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Submitted 40 boxes.');
    const [sent] = await h.api.db.query('SELECT jsonb_array_length(boxes) AS n FROM submissions WHERE checkout_id = $1', [checkoutId]);
    expect(Number(sent.n)).toBe(40);
  });

  it('shows the server’s message when it refuses a submit for its number of boxes, keeps them, and learns the task’s maximum', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { requiredSubmissions: 100 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    // The checkout comes from an API that predates max_boxes (a rolling deploy); the one that takes the submit has it.
    await page.route('**/api/work/checkouts', async (route) => {
      if (route.request().method() !== 'POST') return route.fallback();
      const response = await route.fetch();
      const body = await response.json();
      if (body.data) delete body.data.max_boxes;
      await route.fulfill({ response, json: body });
    });
    const task = await new TaskPage(page).goto(project.projectUuid);
    const checkoutId = await task.checkoutId();
    await task.writeDraft(worker.userId, boxesAlongTheBottom(41), IMAGE);
    await page.reload();
    await task.waitForTask();
    expect(await task.boxCount.innerText()).toBe('41 / 500 boxes');

    await task.submit();
    await task.errors.waitFor();
    const errors = await task.errors.innerText();
    expect(errors).toContain('The task was not submitted');
    expect(errors).toContain('annotations: must hold at most 40 boxes in this task (its 100 submissions hold at most 4000 in all)');
    await task.annotator.expectBoxes(41);
    await expectEventually(async () => (await task.boxCount.getAttribute('data-tone')) === 'over', 'the page to learn the task’s maximum');
    expect(await task.boxCount.innerText()).toBe('41 / 40 boxes · this task takes at most 40: delete 1 before you submit.');
    expect(await task.submitButton.isDisabled()).toBe(true);
    expect(await task.draftKeys()).toEqual([`crowdbox:draft:${worker.userId}:${checkoutId}`]);

    await task.annotator.selectBox(40);
    await task.annotator.press('Delete');
    await task.annotator.expectBoxes(40);
    await task.submit();
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Submitted 40 boxes.');
  });
});
