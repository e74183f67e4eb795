import { useHarness } from '../../support/harness';
import { aProjectWithTasks } from '../../support/scenario';
import { ProjectFormPage } from './console.pages';
import { checkOutNext, signUpWorker, submitBoxes } from './requester-client';

const harness = useHarness();

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
});
