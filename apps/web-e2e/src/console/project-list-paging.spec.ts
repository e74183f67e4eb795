import { useHarness } from '../../support/harness';
import { createProject, signUp } from '../../support/server/api-server';

const harness = useHarness();

/** A progress request of one project: each reads every task of its project, so the list asks for a page's worth only. */
const PROGRESS = /\/api\/console\/projects\/[^/]+\/progress$/;

/** The Projects page asks for 20 projects at a time (docs/console.md, "Projects"; docs/decisions.md, "The project list is paged"). */
describe('the Projects page, a page at a time', () => {
  it('shows 20 of 23 projects with 20 progress requests, loads the other 3 with "Load more projects", and counts an archived one', async () => {
    const h = harness();
    const requester = await signUp(h.api, { name: 'Rita Requester' });
    const uuids: string[] = [];
    for (let i = 1; i <= 23; i++) uuids.push((await createProject(h.api, requester, { name: `batch-${i}`, display_name: `Batch ${i}` })).uuid);

    const page = await h.newPage({ as: requester });
    const progressAsked: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (PROGRESS.test(pathname)) progressAsked.push(pathname);
    });
    await page.goto('/console');
    const cards = page.getByTestId('project-card');
    const loadMore = page.getByRole('button', { name: 'Load more projects' });
    await loadMore.waitFor();
    // Newest first: the last made is on top, the first three are on the next page.
    expect(await cards.count()).toBe(20);
    expect(await cards.first().innerText()).toContain('Batch 23');
    expect(await cards.last().innerText()).toContain('Batch 4');
    expect(progressAsked.length).toBeLessThanOrEqual(20);
    expect(await page.getByTestId('show-archived').count()).toBe(0);

    await loadMore.click();
    await cards.nth(22).waitFor();
    expect(await cards.count()).toBe(23);
    expect(await cards.last().innerText()).toContain('Batch 1');
    expect(await loadMore.count()).toBe(0);
    // The next page asked for its own three projects' progress, no project twice.
    expect(progressAsked.length).toBe(23);
    expect(new Set(progressAsked).size).toBe(23);

    // Archive the newest from its page; the list counts it behind the Archived link.
    await cards.first().getByRole('link', { name: 'Batch 23' }).click();
    await page.getByTestId('archive-project').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Archive', exact: true }).click();
    await page.getByTestId('archived-badge').waitFor();
    await page.goto('/console');
    await page.getByTestId('show-archived').waitFor();
    expect(await page.getByTestId('show-archived').innerText()).toBe('Archived (1)');
    expect(await cards.count()).toBe(20);
    expect(await cards.first().innerText()).toContain('Batch 22');

    await page.getByTestId('show-archived').click();
    await page.getByRole('heading', { name: 'Archived projects' }).waitFor();
    await page.getByTestId('show-active').waitFor();
    expect(await cards.allInnerTexts()).toEqual([expect.stringContaining('Batch 23')]);
    expect(await page.getByTestId('show-active').innerText()).toBe('← Projects in use (22)');
    expect(await loadMore.count()).toBe(0);
  });
});
