import { useHarness } from '../../support/harness';
import { TaskPage } from '../../support/pages/task.page';
import { aProjectWithTasks, aWorker } from '../../support/scenario';

const harness = useHarness();

describe('a task image that does not load', () => {
  it('says so beside a disabled Submit, and Retry loads it with a cache-busting URL', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 1 });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    // The image host fails every plain request (a cached failure would too); a retry's URL gets through.
    const requested: string[] = [];
    await page.route('**/images/**', async (route) => {
      const url = new URL(route.request().url());
      requested.push(url.search);
      if (!url.searchParams.has('crowdbox_retry')) return route.abort('failed');
      url.search = '';
      return route.continue({ url: url.href });
    });
    const task = new TaskPage(page);
    await page.goto(`/work/${project.projectUuid}`);
    await task.workspace.waitFor();

    await page.getByTestId('annotator-error').getByText('The image didn’t load.').waitFor();
    const failed = page.getByTestId('image-failed');
    expect(await failed.innerText()).toBe('The image didn’t load: Retry on the image, or Skip to get another task.');
    expect(await task.submitButton.isDisabled()).toBe(true);
    expect(await task.submitButton.getAttribute('aria-describedby')).toBe(await failed.getAttribute('id'));
    expect(await page.locator('.task-hint').innerText()).not.toContain('Drag on the image');
    expect(await task.annotator.root.getByText('Drag on the image, or press N, to draw a box.').count()).toBe(0);

    await page.getByRole('button', { name: 'Retry' }).click();
    await task.annotator.waitReady();
    expect(requested.at(-1)).toBe('?crowdbox_retry=1');
    expect(await failed.count()).toBe(0);
    expect(await page.getByTestId('annotator-error').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('annotator-stage');
    await task.annotator.drawBox(0.2, 0.2, 0.4, 0.4);
    expect(await task.submitButton.isEnabled()).toBe(true);

    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);
  });
});
