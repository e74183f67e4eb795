import { readFile } from 'node:fs/promises';
import { useHarness } from '../../support/harness';
import { AccountPage } from '../../support/pages/account.page';
import { aProjectWithTasks } from '../../support/scenario';

const harness = useHarness();

/** "Your data" on /account (docs/decisions.md, "Downloading your data"; docs/console.md). */
describe('downloading your data', () => {
  it('saves one JSON file named for the day, with the user, their project and key, and no key secret', async () => {
    const h = harness();
    const { requester, projectUuid, displayName, liveKey } = await aProjectWithTasks(h, { tasks: 1 });
    const page = await h.newPage({ as: requester });
    await page.goto('/console');
    const account = await new AccountPage(page).openFromMenu();

    const download = await account.downloadYourData();
    expect(await download.failure()).toBeNull();
    expect(download.suggestedFilename()).toMatch(/^crowdbox-account-\d{4}-\d{2}-\d{2}\.json$/);
    const text = await readFile(await download.path(), 'utf8');
    const file = JSON.parse(text);
    expect(file.format).toBe('crowdbox-account-export/1');
    expect(file.user).toEqual(expect.objectContaining({ id: requester.userId, email: requester.email }));
    expect(file.projects).toEqual([expect.objectContaining({ uuid: projectUuid, display_name: displayName })]);
    // The key by its prefix, as the Keys page lists it; its secret nowhere in the file.
    expect(file.api_keys).toHaveLength(1);
    expect(liveKey.startsWith(file.api_keys[0].prefix)).toBe(true);
    expect(text).not.toContain(liveKey);
    // A download leaves the page where it was.
    expect(new URL(page.url()).pathname).toBe('/account');
  });
});
