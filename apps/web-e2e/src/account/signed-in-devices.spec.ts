import type { Page } from 'playwright-core';
import { expectEventually } from '../../support/expect-eventually';
import { useHarness } from '../../support/harness';
import { AccountPage } from '../../support/pages/account.page';
import { PASSWORD } from '../../support/scenario';

const harness = useHarness();
const LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';

/** The focused element's test id, else its tag; BODY when nothing has the focus. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'BODY';
    return el.dataset.testid ?? el.tagName;
  });
}

/** "Signed-in devices" on /account (docs/decisions.md, "Signed-in devices"; docs/console.md). */
describe('signed-in devices', () => {
  it('lists this browser and another log-in, and signs the other out: its row goes and its token gets 401', async () => {
    const h = harness();
    const email = `devi-${Date.now()}@example.com`;
    const page = await h.newPage();
    await page.goto('/signup');
    await page.getByLabel('Your name').fill('Devi Devices');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.waitForURL((url) => url.pathname !== '/signup');

    // The same user logs in from "a laptop": another User-Agent and another address.
    const login = await h.api.request({
      method: 'POST',
      url: '/api/session/login',
      headers: { 'user-agent': LAPTOP },
      remoteAddress: '198.51.100.23',
      body: { email, password: PASSWORD },
    });
    expect(login.status).toBe(200);
    const laptop = { authorization: `Bearer ${login.body.data.token}` };
    expect((await h.api.request({ method: 'GET', url: '/api/session/me', headers: laptop })).status).toBe(200);

    const account = await new AccountPage(page).openFromMenu();
    await account.deviceRows.nth(1).waitFor();
    expect(await account.deviceRows.count()).toBe(2);
    const current = account.deviceRows.filter({ hasText: 'This device' });
    expect(await current.count()).toBe(1);
    // This browser is the Chromium running the test, signed up from the loopback address; it has no Sign out.
    expect(await current.getByTestId('device-address').innerText()).toMatch(/^127\.0\.0\.1\s*This device$/);
    expect(await current.getByRole('button').count()).toBe(0);
    const other = account.deviceRow('Firefox on Windows');
    expect(await other.getByTestId('device-address').innerText()).toBe('198.51.100.23');
    expect(await other.innerText()).not.toContain('This device');

    await account.signOutDevice('Firefox on Windows');
    const status = page.getByTestId('device-signed-out');
    await status.waitFor();
    expect(await status.innerText()).toMatch(/^Firefox on Windows \(signed in .+\) is signed out: that device has to log in again\.$/);
    await expectEventually(async () => (await focused(page)) === 'device-signed-out', 'the focus on the sentence', () => focused(page));
    expect(await account.deviceRows.count()).toBe(1);
    expect(await account.deviceRows.first().innerText()).toContain('This device');

    // The laptop's session has ended; this one has not.
    expect((await h.api.request({ method: 'GET', url: '/api/session/me', headers: laptop })).status).toBe(401);
    await page.reload();
    await account.deviceRows.first().waitFor();
    expect(await account.deviceRows.count()).toBe(1);
  });
});
