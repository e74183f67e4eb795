import { useHarness } from '../../support/harness';
import { aProjectWithTasks } from '../../support/scenario';
import { ProjectFormPage } from './console.pages';

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
});
