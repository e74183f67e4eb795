import { useHarness } from '../../support/harness';
import { holdNextRequest } from '../../support/hold-request';
import { aProjectWithTasks } from '../../support/scenario';
import { createProject } from '../../support/server/api-server';
import { ProjectOverviewPage } from './console.pages';

const harness = useHarness();

/** Archiving a project from its page (docs/decisions.md, "Archiving a project"; docs/console.md). */
describe('archiving a project', () => {
  it('archives after a confirmation naming the tasks it cancels, hides the project from the list, shows it under Archived, and unarchives it', async () => {
    const h = harness();
    const { requester, projectUuid, displayName } = await aProjectWithTasks(h, { tasks: 2 });
    const other = await createProject(h.api, requester, { display_name: 'Still in use' });
    const page = await h.newPage({ as: requester });
    const overview = new ProjectOverviewPage(page);
    await overview.open(projectUuid);
    expect(await page.getByTestId('archived-badge').count()).toBe(0);

    await page.getByTestId('archive-project').click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await page.getByTestId('archive-summary').innerText()).toContain('2 outstanding tasks will be cancelled');
    await dialog.getByRole('button', { name: 'Archive and cancel 2 tasks' }).click();
    await page.getByTestId('archived-badge').waitFor();
    expect(await overview.stat('cancelled').innerText()).toBe('2');
    expect(await page.getByTestId('unarchive-project').innerText()).toBe('Unarchive');

    // The list shows the projects in use; the archived one is a link away.
    await page.goto('/console');
    const cards = page.getByTestId('project-card');
    await cards.first().waitFor();
    expect(await cards.allInnerTexts()).toEqual([expect.stringContaining(other.display_name)]);
    expect(await page.getByTestId('show-archived').innerText()).toBe('Archived (1)');
    await page.getByTestId('show-archived').click();
    await page.getByRole('heading', { name: 'Archived projects' }).waitFor();
    expect(await cards.allInnerTexts()).toEqual([expect.stringContaining(displayName)]);
    expect(await cards.first().innerText()).toContain('Archived');

    await cards.first().getByRole('link', { name: displayName }).click();
    await page.getByTestId('unarchive-project').click();
    await page.getByTestId('archive-project').waitFor();
    expect(await page.getByTestId('archived-badge').count()).toBe(0);
    await page.goto('/console');
    await cards.first().waitFor();
    expect(await cards.count()).toBe(2);
    expect(await page.getByTestId('show-archived').count()).toBe(0);
  });

  it('reads the project again when the answer is lost, and shows it archived', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 1 });
    const page = await h.newPage({ as: requester });
    const overview = new ProjectOverviewPage(page);
    await overview.open(projectUuid);

    const held = await holdNextRequest(page, '**/api/console/projects/*/archive');
    await page.getByTestId('archive-project').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive and cancel 1 task' }).click();
    const route = await held.reached;
    // The server archives; a proxy loses its answer.
    expect((await route.fetch()).status()).toBe(200);
    await route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
    await page.getByTestId('archived-badge').waitFor();
    expect(await page.getByTestId('error-list').innerText()).toContain('No answer from the server: the project may have been archived');
    h.takeConsoleErrors(); // Chromium logs the 502 it was given
  });
});
