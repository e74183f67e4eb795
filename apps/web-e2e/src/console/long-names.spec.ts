import { useHarness } from '../../support/harness';
import { aProjectWithTasks, aWorker } from '../../support/scenario';
import { workOnNextTask } from './requester-client';

const harness = useHarness();

describe('a project whose display name has no spaces', () => {
  it('wraps it on every page that shows it, so none scrolls sideways at 390 px', async () => {
    const h = harness();
    // The longest display name the API takes, one word: only breaking inside it can make it fit.
    const displayName = `Find${'the'.repeat(65)}cars`.slice(0, 200);
    const { requester, projectUuid, taskUuids } = await aProjectWithTasks(h, { tasks: 1, displayName });
    // A worker's submission and their block, so the task page, the project's Workers (a row, blocked) and
    // Blocked workers show the name too.
    const worker = await aWorker(h);
    await workOnNextTask(h.baseUrl, { name: 'Wanda Worker', auth: worker.auth }, projectUuid, [{ label: 'car', center_x: 100, center_y: 100, width: 50, height: 40 }], { width: 960, height: 640 });
    const detail = await h.api.request({ method: 'GET', url: `/api/console/projects/${projectUuid}/tasks/${taskUuids[0]}`, headers: requester.auth });
    const pseudonym: string = detail.body.data.results.submissions[0].worker;
    const blocked = await h.api.request({ method: 'POST', url: `/api/console/projects/${projectUuid}/workers/${pseudonym}/block`, headers: requester.auth });
    expect(blocked.status).toBe(200);
    const page = await h.newPage({ as: requester, viewport: { width: 390, height: 844 } });
    const pages = [
      '/console',
      `/console/projects/${projectUuid}`,
      `/console/projects/${projectUuid}/tasks`,
      `/console/projects/${projectUuid}/settings`,
      `/console/projects/${projectUuid}/tasks/${taskUuids[0]}`,
      `/console/projects/${projectUuid}/workers`,
      '/console/keys',
      '/console/workers',
    ];
    const sideways: Array<{ path: string; scrollWidth: number; clientWidth: number }> = [];
    for (const path of pages) {
      await page.goto(path);
      await page.getByText(displayName).first().waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
      const { scrollWidth, clientWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        clientWidth: document.documentElement.clientWidth,
      }));
      if (scrollWidth > clientWidth) sideways.push({ path, scrollWidth, clientWidth });
    }
    expect(sideways).toEqual([]);
  });
});
