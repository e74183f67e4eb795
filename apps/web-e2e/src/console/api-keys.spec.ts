import type { Page } from 'playwright-core';
import { expectEventually } from '../../support/expect-eventually';
import { loseNextAnswer } from '../../support/hold-request';
import { useHarness } from '../../support/harness';
import { aWorker } from '../../support/scenario';
import { createApiKey } from '../../support/server/api-server';
import { ApiKeysPage } from './console.pages';

const harness = useHarness();

/** The focused element's data-testid, or its tag name when it has none. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');
}

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

  it('keeps the keyboard on the page while creating keys, and drops the 20-key error once a key is revoked', async () => {
    const h = harness();
    const requester = await aWorker(h, 'Karl Keys');
    for (let i = 0; i < 19; i++) await createApiKey(h.api, requester, 'test');
    const page = await h.newPage({ as: requester });
    const keys = new ApiKeysPage(page);
    await keys.open();

    // The 20th: the focus goes to its secret.
    await page.getByTestId('create-test-key').focus();
    await page.keyboard.press('Enter');
    await expectEventually(async () => (await focused(page)) === 'new-key', 'the focus on the new key', () => focused(page));

    // The 21st is refused; the focus stays on the button pressed.
    await page.getByTestId('create-live-key').focus();
    await page.keyboard.press('Enter');
    const error = page.getByTestId('error-list');
    await error.waitFor();
    expect(await error.innerText()).toContain('revoke one it no longer uses first');
    expect(await focused(page)).toBe('create-live-key');

    await page.getByRole('button', { name: /^Revoke key cb_test_/ }).first().click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByTestId('key-revoked').waitFor();
    expect(await error.count()).toBe(0);
  });
  it('after a revoke or a create that got no answer, reads the list again and says what may have happened', async () => {
    const h = harness();
    const requester = await aWorker(h, 'Lou Lost');
    await createApiKey(h.api, requester, 'test');
    const page = await h.newPage({ as: requester });
    const keys = new ApiKeysPage(page);
    await keys.open();
    // The server acts on each request; its answer is lost on the way back.
    await loseNextAnswer(page, '**/api/console/api_keys/*');
    await page.getByRole('button', { name: /^Revoke key / }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await page.getByTestId('error-list').getByText('No answer from the server: the key may have been revoked.').waitFor();
    await expectEventually(async () => (await keys.rows.first().innerText()).includes('revoked'), 'the list read again: the key revoked');

    await loseNextAnswer(page, '**/api/console/api_keys');
    await page.getByTestId('create-live-key').click();
    await page.getByTestId('error-list').getByText('No answer from the server: a key may have been made', { exact: false }).waitFor();
    await expectEventually(async () => (await keys.rows.count()) === 2, 'the list read again: the key made');
    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);
  });
});
