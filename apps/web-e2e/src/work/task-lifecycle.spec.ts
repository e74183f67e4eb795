import { expectEventually } from '../../support/expect-eventually';
import { loseNextAnswer } from '../../support/hold-request';
import { useHarness, type Harness } from '../../support/harness';
import { TaskPage } from '../../support/pages/task.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { aProjectWithTasks, aWorker, aWorkerOnATask, expireLease, LABELS } from '../../support/scenario';

const harness = useHarness();

/** A project with `tasks` tasks, a worker, and that worker's browser page on one of them. */
async function onATaskOf(tasks: number) {
  const h = harness();
  return { h, ...(await aWorkerOnATask(h, { tasks })) };
}

/** Submits with the reply lost; waits until the page says it got no answer. */
async function submitLosingTheReply(task: TaskPage): Promise<void> {
  const answered = await loseNextAnswer(task.page, '**/api/work/checkouts/*/submit');
  await task.submit();
  await task.errors.getByText('No answer from the server').waitFor();
  expect(answered()).toBe(201);
}

/** Takes the console errors of requests the test itself made fail (route.abort), and fails on any other. */
function expectOnlyAbortedRequests(h: Harness): void {
  for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);
}

describe('a leased task', () => {
  it('renders the prompt but never runs script from it, whatever the server sends', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, {
      template: '<p>Box the <b>cars</b>.</p><img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>',
    });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });

    // Second line of defence: even a prompt that reached the browser unsanitized runs nothing.
    const served: string[] = [];
    await page.route('**/api/work/checkouts', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      served.push(body.data.prompt);
      body.data.prompt +=
        '<img src=x onerror="window.__pwned=3"><svg><animate onbegin="window.__pwned=4" attributeName="x" dur="1s"/></svg>' +
        '<a id="js-link" href="javascript:window.__pwned=5">help</a><iframe srcdoc="<script>parent.__pwned=6</script>"></iframe>' +
        '<form action="javascript:window.__pwned=7"><button>go</button></form><div style="position:fixed;inset:0">cover</div>';
      await route.fulfill({ response, json: body });
    });

    const task = await new TaskPage(page).goto(project.projectUuid);
    expect(await task.prompt.innerText()).toContain('Box the cars.');
    // The server's own sanitizer already removed the handler and the script.
    expect(served[0]).not.toMatch(/onerror|<script/i);
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    const html = await task.prompt.innerHTML();
    expect(html).not.toMatch(/onerror|onbegin|<script|javascript:|<iframe|<form|<button|style=/i);
    if (await page.locator('#js-link').count()) await page.locator('#js-link').click();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
    // Third line: the page's Content-Security-Policy. DOMPurify parses the injected handlers in an inert
    // document, where Chromium already refuses them and says so; those reports, and nothing else, are expected.
    // Besides: `<img src=x>` is kept without its handler and asks for /work/x, which is no page load (an image
    // request does not accept text/html), so the server answers it 404 and Chromium logs that.
    const imageNotFound = /Failed to load resource: the server responded with a status of 404 \(Not Found\) \(http:\/\/[^/]+\/work\/x\)$/;
    const errors = h.takeConsoleErrors().filter((error) => !imageNotFound.test(error));
    expect(errors.length).toBeGreaterThan(0);
    for (const error of errors) expect(error).toContain("violates the following Content Security Policy directive 'script-src 'self''");
  });

  it('keeps the boxes drawn so far across a reload; Skip gives the task back; the end of the queue says so', async () => {
    const { h, worker, page, task } = await onATaskOf(2);
    const checkoutId = await task.checkoutId();
    await task.annotator.drawBox(0.1, 0.1, 0.3, 0.4);
    await task.annotator.drawBox(0.5, 0.5, 0.7, 0.9);
    const drawn = await task.annotator.boxes();

    await page.reload();
    await task.waitForTask();
    expect(await task.checkoutId()).toBe(checkoutId);
    await task.annotator.expectBoxes(2);
    expect(await task.annotator.boxes()).toEqual(drawn);
    await page.getByTestId('draft-restored').waitFor();
    expect(await task.draftKeys()).toEqual([`crowdbox:draft:${worker.userId}:${checkoutId}`]);

    await task.skip();
    await page.getByRole('button', { name: 'Skip and throw away 2 boxes' }).click();
    await task.notice.getByText('Skipped. The task went back to other workers.').waitFor();
    await task.waitForTask();
    const second = await task.checkoutId();
    expect(second).not.toBe(checkoutId);
    await task.annotator.expectBoxes(0);
    expect(await task.draftKeys()).toEqual([]);
    const active = await h.api.request({ method: 'GET', url: '/api/work/checkouts', headers: worker.auth });
    expect(active.body.data.map((c: { checkout_id: string }) => c.checkout_id)).toEqual([second]);

    // Nothing to box on this one: submit it empty; the project has nothing left for this worker.
    await task.submit();
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Submitted 0 boxes.');
  });

  it('shows the same boxes in two tabs on one lease: each edit reaches the other tab, and the last edit is what a reload resumes', async () => {
    const { project, page, task } = await onATaskOf(2);
    const checkoutId = await task.checkoutId();
    await task.annotator.drawBox(0.1, 0.1, 0.2, 0.2);
    await task.annotator.drawBox(0.3, 0.1, 0.4, 0.2);

    // A second tab of the same browser (one localStorage) resumes the lease with its two boxes.
    const other = new TaskPage(await page.context().newPage());
    await other.goto(project.projectUuid);
    expect(await other.checkoutId()).toBe(checkoutId);
    await other.annotator.expectBoxes(2);

    // Boxes drawn in the first tab appear in the second, and the other way round: nothing is overwritten.
    // (The worker looks at one tab at a time: the one drawn in is brought to the front.)
    await page.bringToFront();
    await task.annotator.drawBox(0.5, 0.1, 0.6, 0.2);
    await task.annotator.drawBox(0.7, 0.1, 0.8, 0.2);
    await other.annotator.expectBoxes(4);
    await other.page.bringToFront();
    await other.annotator.drawBox(0.1, 0.6, 0.2, 0.7);
    await task.annotator.expectBoxes(5);
    expect(await task.annotator.boxes()).toEqual(await other.annotator.boxes());
    expect(await task.submitButton.innerText()).toBe('Submit 5 boxes');

    // An edit adopted from the other tab is no undo step here: Ctrl+Z undoes nothing the other tab did.
    await page.bringToFront();
    await task.annotator.stage.focus();
    await task.annotator.press('Control+z');
    await page.waitForTimeout(300);
    await task.annotator.expectBoxes(5);

    await page.reload();
    await task.waitForTask();
    await task.annotator.expectBoxes(5);
    await other.page.close();
  });

  it('asks before Skip throws away drawn boxes: Escape or "Keep drawing" keeps them and the lease, the second answer skips', async () => {
    const { h, worker, page, task } = await onATaskOf(2);
    const first = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    const activeLeases = async () => {
      const res = await h.api.request({ method: 'GET', url: '/api/work/checkouts', headers: worker.auth });
      return res.body.data.map((c: { checkout_id: string }) => c.checkout_id);
    };
    const focused = () => page.evaluate(() => document.activeElement?.textContent ?? '');

    await task.skip();
    const confirm = page.getByRole('group', { name: 'Skip this task and throw away your 1 box?' });
    await confirm.waitFor();
    expect(await focused()).toBe('Keep drawing');
    await page.keyboard.press('Escape');
    await confirm.waitFor({ state: 'detached' });
    expect(await focused()).toBe('Skip');
    await task.annotator.expectBoxes(1);
    expect(await activeLeases()).toEqual([first]);

    await task.skip();
    await confirm.getByRole('button', { name: 'Keep drawing' }).click();
    await confirm.waitFor({ state: 'detached' });
    await task.annotator.expectBoxes(1);
    expect(await activeLeases()).toEqual([first]);

    await task.skip();
    await confirm.getByRole('button', { name: 'Skip and throw away 1 box' }).click();
    await task.notice.getByText('Skipped. The task went back to other workers.').waitFor();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(first);
    await task.annotator.expectBoxes(0);
  });

  it('keeps a resumed draft on the same objects when the image comes back at another size, and submits it in that size', async () => {
    const { h, page, task } = await onATaskOf(1);
    const checkoutId = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    const [drawn] = await task.annotator.boxes();

    // The image at the task's URL is now served at half the size (replaced, or resized by its host).
    await page.route(h.images.url(960, 640, 'task-0'), async (route) => route.fulfill({ response: await route.fetch({ url: h.images.url(480, 320) }) }));
    await page.reload();
    await task.waitForTask();
    expect((await task.annotator.geometry()).image).toEqual({ width: 480, height: 320 });
    const [resumed] = await task.annotator.boxes();
    for (const key of ['center_x', 'center_y', 'width', 'height'] as const) expect(Math.abs(resumed[key] - drawn[key] / 2)).toBeLessThanOrEqual(1);

    expect(await task.submitButton.innerText()).toBe('Submit 1 box');
    await task.submit();
    await task.noTask.waitFor();
    const [sent] = await h.api.db.query('SELECT boxes, image_width, image_height FROM submissions WHERE checkout_id = $1', [checkoutId]);
    expect(sent).toMatchObject({ image_width: 480, image_height: 320, boxes: [resumed] });
  });

  it('counts on Submit only the boxes it sends: a box of an older draft that lies outside the image is named, not sent', async () => {
    const { h, worker, page, task } = await onATaskOf(1);
    const checkoutId = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    // A draft saved before drafts kept their image's size, with a box far right, and the image now smaller.
    await page.evaluate(
      ({ key }) => {
        const draft = JSON.parse(localStorage.getItem(key) ?? '{}');
        delete draft.image;
        draft.boxes.push({ label: 'car', center_x: 900, center_y: 300, width: 40, height: 40 });
        localStorage.setItem(key, JSON.stringify(draft));
      },
      { key: `crowdbox:draft:${worker.userId}:${checkoutId}` },
    );
    await page.route(h.images.url(960, 640, 'task-0'), async (route) => route.fulfill({ response: await route.fetch({ url: h.images.url(480, 320) }) }));
    await page.reload();
    await task.waitForTask();
    await task.annotator.expectBoxes(2);

    expect(await task.submitButton.innerText()).toBe('Submit 1 box');
    expect(await page.getByTestId('boxes-outside').innerText()).toContain('1 box lies outside the image and is not sent');
    await task.submit();
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Submitted 1 box.');
  });

  it('says when time is up instead of losing the boxes silently, and offers the next task', async () => {
    const { h, task } = await onATaskOf(2);
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await expireLease(h, await task.checkoutId());

    await task.submit();
    await task.expired.waitFor();
    const message = await task.expired.innerText();
    expect(message).toContain('Time is up');
    expect(message).toContain('The 1 box you drew on it was not sent.');
    expect(await task.draftKeys()).toEqual([]);

    await task.expired.getByRole('button', { name: 'Next task' }).click();
    await task.waitForTask();
    await task.annotator.expectBoxes(0);
  });

  it('takes a submit whose reply was lost as done: a retry gets its result; new boxes or Skip move on', async () => {
    const { h, worker, task } = await onATaskOf(3);

    // Submit again as it was: the same body, which the server answers with the first result.
    const first = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await submitLosingTheReply(task);
    await task.submit();
    await task.notice.getByText('Submitted 1 box. You earned $0.25.').waitFor();
    await task.waitForTask();
    const second = await task.checkoutId();
    expect(second).not.toBe(first);

    // Another box, then submit: the server has the first boxes; the task is done, not stuck.
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await submitLosingTheReply(task);
    await task.annotator.drawBox(0.6, 0.6, 0.8, 0.8);
    await task.submit();
    await task.notice.getByText('This task was already submitted.').waitFor();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(second);
    await task.annotator.expectBoxes(0);

    // Skip after the lost reply: the same.
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await submitLosingTheReply(task);
    await task.skip();
    await task.page.getByRole('button', { name: 'Skip and throw away 1 box' }).click();
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('This task was already submitted.');
    expect(await task.draftKeys()).toEqual([]);

    const earnings = await h.api.request({ method: 'GET', url: '/api/work/earnings', headers: worker.auth });
    expect(earnings.body.data).toMatchObject({ submission_count: 3, earned_cents: 75 });
    expectOnlyAbortedRequests(h);
  });

  it('takes a Skip whose reply was lost as skipped when the server has it, instead of leaving the worker drawing on a task given back', async () => {
    const { h, worker, page, task } = await onATaskOf(2);
    const first = await task.checkoutId();
    await loseNextAnswer(page, '**/api/work/checkouts/*/release');
    await task.skip();
    await task.notice.getByText('Skipped. The task went back to other workers.').waitFor();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(first);
    expect(await task.errors.count()).toBe(0);
    const [lease] = await h.api.db.query('SELECT state FROM checkouts WHERE id = $1', [first]);
    expect(lease.state).toBe('released');
    const active = await h.api.request({ method: 'GET', url: '/api/work/checkouts', headers: worker.auth });
    expect(active.body.data).toHaveLength(1);
    expectOnlyAbortedRequests(h);
  });

  it('after a reload during a submit, calls its draft neither lost nor unsent when the server has it', async () => {
    const { h, project, worker, page, task } = await onATaskOf(3);
    const first = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await submitLosingTheReply(task);

    await page.reload();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(first);
    expect(await task.notice.innerText()).toContain('Your previous task here was submitted.');
    expect(await task.draftKeys()).toEqual([]);

    // The work list does not report it either.
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    await submitLosingTheReply(task);
    const list = await new WorkProjectsPage(page).goto();
    await list.project(project.displayName).waitFor();
    await expectEventually(async () => (await task.draftKeys()).length === 0, 'the submitted draft to be settled');
    expect(await page.getByTestId('lost-drafts').count()).toBe(0);

    const earnings = await h.api.request({ method: 'GET', url: '/api/work/earnings', headers: worker.auth });
    expect(earnings.body.data.submission_count).toBe(2);
    expectOnlyAbortedRequests(h);
  });

  it('says when the requester cancelled the task during the lease, drops its draft, and offers the next task', async () => {
    const { h, project, task } = await onATaskOf(2);
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    const cancel = await h.api.request({
      method: 'POST',
      url: `/api/console/projects/${project.projectUuid}/cancel_outstanding`,
      headers: project.requester.auth,
    });
    expect(cancel.body.data).toMatchObject({ cancelled: 2, ended_checkouts: 1 });

    await task.submit();
    await task.cancelled.waitFor();
    expect(await task.cancelled.innerText()).toMatch(/Task cancelled[\s\S]*The requester cancelled this task[\s\S]*The 1 box you drew on it was not sent\./);
    expect(await task.countdown.count()).toBe(0);
    expect(await task.draftKeys()).toEqual([]);

    // The requester cancelled every open task of the project, so there is no next one here.
    await task.cancelled.getByRole('button', { name: 'Next task' }).click();
    await task.noTask.waitFor();
  });

  it('says a Skip met a task its requester had cancelled, not that it was skipped', async () => {
    const { h, project, task } = await onATaskOf(2);
    const cancel = await h.api.request({
      method: 'POST',
      url: `/api/console/projects/${project.projectUuid}/cancel_outstanding`,
      headers: project.requester.auth,
    });
    expect(cancel.body.data).toMatchObject({ cancelled: 2, ended_checkouts: 1 });

    await task.skip();
    await task.noTask.waitFor();
    const notice = await task.notice.innerText();
    expect(notice).toContain('The requester cancelled this task before you skipped it.');
    expect(notice).not.toContain('Skipped');
  });

  it('ends a task whose lease was given back elsewhere (Skip in another tab) when Submit is pressed, and offers the next task', async () => {
    const { page, task } = await onATaskOf(2);
    const first = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    // What the other tab's Skip sends: the same session, the same call.
    const released = await page.evaluate(async (id) => {
      const res = await fetch(`/api/work/checkouts/${id}/release`, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: '{}' });
      return { status: res.status, body: await res.json() };
    }, first);
    expect(released).toMatchObject({ status: 200, body: { data: { state: 'released' } } });

    await task.submit();
    const ended = page.getByTestId('task-released');
    await ended.waitFor();
    expect(await ended.innerText()).toMatch(/Task given back[\s\S]*given back[\s\S]*The 1 box you drew on it was not sent\./);
    expect(await task.countdown.count()).toBe(0);
    expect(await task.draftKeys()).toEqual([]);

    await ended.getByRole('button', { name: 'Next task' }).click();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(first);
    await task.annotator.expectBoxes(0);
  });

  it('ends a task that other workers completed during the lease (the lease-expiry race) when Submit is pressed, and offers the next task', async () => {
    const { h, project, task } = await onATaskOf(2);
    const mine = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    // The race, staged: this lease runs out, another worker leases the slot, this lease counts as live
    // again (a submit that began just in time), and the other worker's submit completes the task.
    const setExpiry = (interval: string) =>
      h.api.db.query(`UPDATE checkouts SET expires_at = now() + $2::interval WHERE id = $1`, [mine, interval]);
    await setExpiry('-1 second');
    const other = await aWorker(h);
    const taken = await h.api.request({ method: 'POST', url: '/api/work/checkouts', headers: other.auth, body: { project_uuid: project.projectUuid } });
    expect(taken.status).toBe(201);
    await setExpiry('10 minutes');
    const done = await h.api.request({
      method: 'POST',
      url: `/api/work/checkouts/${taken.body.data.checkout_id}/submit`,
      headers: other.auth,
      body: { annotations: [], image_width: 640, image_height: 480 },
    });
    expect(done.status).toBe(201);

    await task.submit();
    const ended = task.page.getByTestId('task-completed');
    await ended.waitFor();
    expect(await ended.innerText()).toMatch(/Task already completed[\s\S]*Other workers completed this task[\s\S]*The 1 box you drew on it was not sent\./);
    expect(await task.countdown.count()).toBe(0);
    expect(await task.draftKeys()).toEqual([]);

    await ended.getByRole('button', { name: 'Next task' }).click();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(mine);
  });

  it('when the requester renames a label during the lease, offers the current labels and keeps the boxes to relabel', async () => {
    const { h, project, page, task } = await onATaskOf(1);
    const picker = (name: string) => page.getByTestId(`annotator-label-${name}`);
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    expect((await task.annotator.boxes()).map((b) => b.label)).toEqual(['car']);

    const renamed = [{ name: 'vehicle', color: LABELS[0].color }, ...LABELS.slice(1)];
    const patch = await h.api.request({
      method: 'PATCH',
      url: `/api/console/projects/${project.projectUuid}`,
      headers: project.requester.auth,
      body: { labels: renamed },
    });
    expect(patch.status).toBe(200);

    await task.submit();
    await task.errors.getByText('The labels of this project changed').waitFor();
    expect(await task.errors.innerText()).toMatch(/1 box has a label this project no longer uses \(car\)[\s\S]*vehicle, person, bicycle/);
    await picker('vehicle').waitFor();
    expect(await picker('car').count()).toBe(0);
    await task.annotator.expectBoxes(1);
    expect(await task.draftKeys()).toHaveLength(1);

    await task.annotator.selectBox(0);
    await picker('vehicle').click();
    await expectEventually(async () => (await task.annotator.boxes())[0]?.label === 'vehicle', 'the box to be relabelled vehicle');
    await task.submit();
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Submitted 1 box.');
    const res = await h.api.request({
      method: 'GET',
      url: `/api/v1/tasks/${project.taskUuids[0]}/annotations?view=submissions`,
      headers: { apikey: project.liveKey },
    });
    expect(res.body.data.submissions[0].annotations.map((b: { label: string }) => b.label)).toEqual(['vehicle']);
  });

  it('reports a lease that ran out while the worker was away, with its draft', async () => {
    const { h, worker, page, task } = await onATaskOf(2);
    const first = await task.checkoutId();
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);
    expect(await task.draftKeys()).toEqual([`crowdbox:draft:${worker.userId}:${first}`]);
    await expireLease(h, first);

    await page.reload();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(first);
    expect(await task.notice.innerText()).toContain('Your previous task here ended before it was submitted (time ran out); its 1 box was not sent.');
    expect(await task.draftKeys()).toEqual([]);
  });

  it('keeps the "Submitted" message when getting the next task fails after it', async () => {
    const { h, page, task } = await onATaskOf(2);
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);

    // The submit goes through; the checkout of the next task that follows it meets a network failure.
    await page.route('**/api/work/checkouts', (route) => route.abort('failed'), { times: 1 });
    await task.submit();
    await page.getByRole('heading', { name: 'Could not get a task' }).waitFor();
    expect(await task.notice.innerText()).toContain('Submitted 1 box. You earned $0.25.');
    expectOnlyAbortedRequests(h);

    await page.getByRole('button', { name: 'Try again' }).click();
    await task.waitForTask();
    await task.annotator.expectBoxes(0);
  });

  it('counts down, warns in the last minute, and shows the message when the time runs out', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { allowedSeconds: 30 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    await page.clock.install();
    const task = await new TaskPage(page).goto(project.projectUuid);
    expect(await task.countdown.getAttribute('data-warning')).toBe('true');
    expect(await task.countdown.innerText()).toMatch(/0:(28|27|26)[\s\S]*Less than a minute left/);
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.5);

    await page.clock.fastForward(31_000);
    await task.expired.waitFor();
    expect(await task.expired.innerText()).toContain('The 1 box you drew on it was not sent.');
  });
});

describe('the annotator page on a phone', () => {
  it('fits the width, puts the time and instructions first, and still draws', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h);
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker, viewport: { width: 390, height: 844 } });
    const task = await new TaskPage(page).goto(project.projectUuid);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    const stage = await task.annotator.stage.boundingBox();
    const countdown = await task.countdown.boundingBox();
    if (!stage || !countdown) throw new Error('the stage or the countdown is not on the page');
    expect(stage.width).toBeGreaterThan(300);
    expect(countdown.y).toBeLessThan(stage.y);
    await task.annotator.stage.scrollIntoViewIfNeeded();
    await task.annotator.drawBox(0.2, 0.2, 0.6, 0.7);
    await task.submitButton.scrollIntoViewIfNeeded();
    expect(await task.submitButton.innerText()).toBe('Submit 1 box');
    await page.evaluate(() => window.scrollTo(0, 0));
    await h.screenshot(page, 'work-annotator-phone');
  });

  it('held sideways (844×390): the stage leaves room around it, and a new box scrolls only the box list, never the page', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { image: { width: 960, height: 640 } });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker, viewport: { width: 844, height: 390 } });
    const task = await new TaskPage(page).goto(project.projectUuid);
    // More boxes than the list shows, so the new one is out of the list's sight.
    const boxes = Array.from({ length: 24 }, (_, i) => ({ label: 'car', center_x: 20 + i * 30, center_y: 600, width: 20, height: 20 }));
    await task.writeDraft(worker.userId, boxes, { width: 960, height: 640 });
    await page.reload();
    await task.waitForTask();
    await task.annotator.expectBoxes(24);

    const stage = await task.annotator.stage.boundingBox();
    if (!stage) throw new Error('no stage');
    expect(stage.height).toBeLessThanOrEqual(Math.ceil(390 * 0.7));
    await task.annotator.stage.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate(() => window.scrollY);
    await task.annotator.drawBox(0.3, 0.2, 0.5, 0.5);

    const list = page.getByTestId('annotator-box-list');
    const newest = task.annotator.boxItems.nth(24);
    expect(await newest.getAttribute('data-selected')).toBe('true');
    expect(await page.evaluate(() => window.scrollY)).toBe(scrolled);
    expect(await list.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    const [item, box] = [await newest.boundingBox(), await list.boundingBox()];
    if (!item || !box) throw new Error('no list item');
    expect(item.y).toBeGreaterThanOrEqual(box.y - 1);
    expect(item.y + item.height).toBeLessThanOrEqual(box.y + box.height + 1);
  });
});
