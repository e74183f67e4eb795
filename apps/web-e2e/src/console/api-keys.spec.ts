import type { Page } from 'playwright-core';
import { useHarness } from '../../support/harness';
import { aWorker } from '../../support/scenario';
import { ApiKeysPage } from './console.pages';

const harness = useHarness();

/** Whether leaving the page now (reload, a typed address, closing the tab) would make the browser ask first. */
function unloadAsks(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });
}

describe('API keys', () => {
  it('asks before leaving the page while a new key’s secret is not dismissed', async () => {
    const h = harness();
    // A new account with no project: the page offers "Create a project" right under the secret.
    const requester = await aWorker(h, 'Nora New');
    const page = await h.newPage({ as: requester });
    const keys = new ApiKeysPage(page);
    await keys.open();
    expect(await unloadAsks(page)).toBe(false);
    const secret = await keys.create('test');

    await page.getByRole('link', { name: 'Create a project' }).click();
    const dialog = page.getByRole('dialog', { name: 'Leave without the new key’s secret?' });
    await dialog.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stay on this page');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/console/keys');
    expect(await keys.newKeys.getByTestId('new-key-secret').innerText()).toBe(secret);
    expect(await unloadAsks(page)).toBe(true);

    // The console's own navigation asks too; "Leave anyway" goes.
    await page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Webhooks' }).click();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Leave anyway' }).click();
    await page.waitForURL('**/console/webhooks');

    // Once the secret is dismissed, nothing asks.
    await keys.open();
    await keys.create('test');
    await keys.newKeys.getByRole('button', { name: 'I have saved it' }).click();
    expect(await unloadAsks(page)).toBe(false);
    await page.getByRole('link', { name: 'Create a project' }).click();
    await page.waitForURL('**/console/projects/new');
  });
});
