import type { Page } from 'playwright-core';
import { useHarness } from '../../support/harness';
import { expectEventually } from '../../support/expect-eventually';
import { holdNextRequest, loseNextAnswer } from '../../support/hold-request';
import { aProjectWithTasks } from '../../support/scenario';
import { ProjectFormPage } from './console.pages';
import { checkOutNext, signUpWorker, submitBoxes } from './requester-client';

const harness = useHarness();

/** The focused element's data-testid, its aria-label, or its tag name. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el?.getAttribute('data-testid') ?? el?.getAttribute('aria-label') ?? el?.id ?? el?.tagName ?? '';
  });
}

/** The error text under each label of the labels editor, in order ('' where there is none). */
function labelErrors(page: Page): Promise<string[]> {
  return page.getByTestId('labels-editor').locator('li').evaluateAll((rows) => rows.map((r) => r.querySelector('.field-error')?.textContent ?? ''));
}

describe('project settings', () => {
  it('previews a template as the server stores it, and shows the stored template after saving', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 0 });
    const page = await h.newPage({ as: requester });
    await page.goto(`/console/projects/${projectUuid}/settings`);
    const form = new ProjectFormPage(page);
    const template = form.field('Template (HTML)');
    await template.waitFor();
    // details, summary, kbd, abbr and section are outside the API's allowlist: workers get their text only.
    const typed = '<section><details><summary>Hint</summary>Look at the kerb.</details><p>Press <kbd>1</kbd> for a <abbr title="motor car">car</abbr>.</p></section>';
    await template.fill(typed);
    await form.expectPreview('Press 1 for a car.');
    expect(await form.preview.locator('section, details, summary, kbd, abbr').count()).toBe(0);
    expect(await form.preview.innerText()).toContain('HintLook at the kerb.');
    await page.getByTestId('preview-allowlist-note').waitFor();

    await page.getByRole('button', { name: 'Save changes' }).click();
    const saved = page.getByRole('status').filter({ hasText: 'Saved.' });
    await saved.waitFor();
    expect(await saved.innerText()).toContain('The template allowlist changed the template');
    const stored = (await (await page.request.get(`/api/console/projects/${projectUuid}`)).json()).data.template;
    expect(stored).toBe('HintLook at the kerb.<p>Press 1 for a car.</p>');
    expect(await template.inputValue()).toBe(stored);
    expect(await page.getByTestId('preview-allowlist-note').count()).toBe(0);
  });

  it('asks before removing or renaming labels while tasks are outstanding, naming them and what happens to work in progress', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 1 }); // labels car, person, bicycle
    const worker = await signUpWorker(h.baseUrl, 'Busy Worker');
    const checkout = await checkOutNext(h.baseUrl, worker, projectUuid);
    const page = await h.newPage({ as: requester });
    await page.goto(`/console/projects/${projectUuid}/settings`);
    const form = new ProjectFormPage(page);
    await form.field('Name of label 1').waitFor();
    await form.setLabel(0, 'automobile', '#e4572e');
    await page.getByRole('button', { name: 'Remove label bicycle' }).click();
    const labels = async () => (await (await page.request.get(`/api/console/projects/${projectUuid}`)).json()).data.labels.map((l: { name: string }) => l.name);

    await page.getByRole('button', { name: 'Save changes' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove or rename 2 labels in use?' });
    await dialog.waitFor();
    expect(await page.getByTestId('dropped-labels').innerText()).toBe('“car” (renamed “automobile”)\n“bicycle” (removed)');
    const text = await dialog.innerText();
    expect(text).toContain('1 outstanding task');
    expect(text).toContain('refused at submit');
    expect(text).toContain('Boxes already submitted keep the old name');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Keep editing');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await labels()).toEqual(['car', 'person', 'bicycle']);

    await page.getByRole('button', { name: 'Save changes' }).click();
    await dialog.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await labels()).toEqual(['automobile', 'person']);
    // What the dialog warned of: the open checkout's box labelled car is refused.
    const refused = await submitBoxes(h.baseUrl, worker, checkout.checkout_id, [{ label: 'car', center_x: 100, center_y: 100, width: 50, height: 40 }], { width: 960, height: 640 });
    expect(refused.status).toBe(422);
    expect(JSON.stringify(refused.body)).toContain('not a label of this project');
  });

  it('refuses to save over a version saved elsewhere meanwhile, and reloads it keeping what was typed', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 0 });
    const page = await h.newPage({ as: requester });
    await page.goto(`/console/projects/${projectUuid}/settings`);
    const form = new ProjectFormPage(page);
    await form.field('Display name').waitFor();
    await form.field('Display name').fill('Typed here');
    const read = async () => (await h.api.request({ method: 'GET', url: `/api/console/projects/${projectUuid}`, headers: requester.auth })).body.data;
    // Another tab saves first.
    const elsewhere = await h.api.request({ method: 'PATCH', url: `/api/console/projects/${projectUuid}`, headers: requester.auth, body: { display_name: 'Saved elsewhere', expected_updated_at: (await read()).updated_at } });
    expect(elsewhere.status).toBe(200);

    await page.getByRole('button', { name: 'Save changes' }).click();
    const note = page.getByTestId('changed-elsewhere');
    await note.waitFor();
    expect(await note.innerText()).toContain('Not saved: this project was changed elsewhere after you opened it.');
    expect(await focused(page)).toBe('changed-elsewhere');
    expect((await read()).display_name).toBe('Saved elsewhere');
    expect(await form.field('Display name').inputValue()).toBe('Typed here');

    await note.getByRole('button', { name: 'Reload the project' }).click();
    await expectEventually(async () => (await note.innerText()).includes('The newer version is loaded.'), 'the note to say the newer version is loaded', () => note.innerText());
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Saved elsewhere');
    expect(await form.field('Display name').inputValue()).toBe('Typed here');
    expect(await focused(page)).toBe('changed-elsewhere');

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect((await read()).display_name).toBe('Typed here');
    expect(await note.count()).toBe(0);
  });

  it('keeps each label error on its label: removing a label clears them, editing one clears its own', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 0 }); // labels car, person, bicycle
    const page = await h.newPage({ as: requester });
    await page.goto(`/console/projects/${projectUuid}/settings`);
    const form = new ProjectFormPage(page);
    await form.field('Name of label 2').fill('car');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expectEventually(async () => (await labelErrors(page))[1] !== '', 'the duplicate refused under label 2');
    expect(await labelErrors(page)).toEqual(['', '"car" appears twice; label names must be unique', '']);

    // The first car goes: no duplicate is left, and "bicycle", now second, has done nothing wrong.
    await page.getByRole('button', { name: 'Remove label car' }).first().click();
    expect(await labelErrors(page)).toEqual(['', '']);

    await form.field('Name of label 2').fill('car');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expectEventually(async () => (await labelErrors(page))[1] !== '', 'the duplicate refused again');
    expect(await focused(page)).toBe('label-name-1');
    await page.keyboard.type('s');
    expect(await labelErrors(page)).toEqual(['', '']);

    await form.field('Display name').fill('');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expectEventually(async () => (await form.fieldError('Display name')) !== '', 'the empty display name refused');
    expect(await focused(page)).toBe('project-display_name');
    await page.keyboard.type('N');
    expect(await form.fieldError('Display name')).toBe('');
    // Clearing an error while typing leaves the keyboard where it is.
    expect(await focused(page)).toBe('project-display_name');
  });
  it('saves a renamed label once when Save is pressed twice while the outstanding tasks are read', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 0 });
    const page = await h.newPage({ as: requester });
    await page.goto(`/console/projects/${projectUuid}/settings`);
    const form = new ProjectFormPage(page);
    await form.field('Name of label 1').waitFor();
    await form.setLabel(0, 'automobile', '#e4572e');
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'PATCH') patches.push(request.url());
    });

    // A rename asks the server how many tasks are outstanding first; a second press comes while it answers.
    const progress = await holdNextRequest(page, `**/api/console/projects/${projectUuid}/progress`);
    const save = page.getByRole('button', { name: 'Save changes' });
    await save.click();
    await progress.reached;
    // aria-disabled while busy, which Playwright's click waits out: a person's second press is not held back so.
    await page.getByRole('button', { name: /Save changes|Saving…/ }).click({ force: true });
    await progress.release();

    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await page.waitForTimeout(500);
    expect(patches).toHaveLength(1);
    expect(await page.getByTestId('changed-elsewhere').count()).toBe(0);
    const stored = (await (await page.request.get(`/api/console/projects/${projectUuid}`)).json()).data.labels;
    expect(stored[0].name).toBe('automobile');
  });
  it('after a save that got no answer, reads the project again, so saving again is not refused as changed elsewhere', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 0 });
    const page = await h.newPage({ as: requester });
    await page.goto(`/console/projects/${projectUuid}/settings`);
    const form = new ProjectFormPage(page);
    const name = form.field('Display name');
    await name.waitFor();
    await name.fill('Cars, counted again');
    // The server saves it; the answer is lost on the way back.
    await loseNextAnswer(page, `**/api/console/projects/${projectUuid}`, 'PATCH');
    // The page's re-read: a GET of the project answered 200 from here on (useLoad may abort one and send
    // another), counted by a listener, which has no time limit of its own. A waitForResponse made here had 10 s
    // for the click, the PATCH's round trip to the server, the error and the GET together: too little on a
    // loaded CI host, where it timed out though the page did read the project again.
    const rereads: string[] = [];
    page.on('requestfinished', (request) => {
      if (request.method() !== 'GET' || new URL(request.url()).pathname !== `/api/console/projects/${projectUuid}`) return;
      void request.response().then((response) => response?.ok() && rereads.push(request.url()));
    });
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('No answer from the server: the changes may have been saved.', { exact: false }).waitFor();
    await expectEventually(async () => rereads.length > 0, 'the project read again after the lost answer', undefined, 30_000);
    // The answer is in; the page applies it in its next tasks, before a frame and a timer have passed.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve))));
    expect(await name.inputValue()).toBe('Cars, counted again');

    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    expect(await page.getByTestId('changed-elsewhere').count()).toBe(0);
    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);
  });
});
