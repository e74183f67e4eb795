import { useHarness } from '../../support/harness';
import { holdNextRequest } from '../../support/hold-request';
import { AccountPage } from '../../support/pages/account.page';
import { aProjectWithTasks, aWorker, PASSWORD } from '../../support/scenario';

const harness = useHarness();

/** Deleting one's own account from /account (docs/decisions.md, "Deleting an account"; docs/console.md). */
describe('deleting the account', () => {
  it('says what happens, refuses a wrong password in the dialog, then deletes: the log-in page says so and the old password no longer logs in', async () => {
    const h = harness();
    const { requester, projectUuid, liveKey } = await aProjectWithTasks(h, { tasks: 2 });
    const page = await h.newPage({ as: requester });
    await page.goto('/console');
    const account = await new AccountPage(page).openFromMenu();

    const dialog = await account.openDeleteAccount();
    const summary = await dialog.getByTestId('delete-account-summary').innerText();
    for (const words of ['projects are archived', 'outstanding tasks cancelled', 'API keys are revoked', 'every device is signed out', 'Results stay']) {
      expect(summary).toContain(words);
    }
    await account.confirmDeleteAccount(dialog, 'not my password');
    await dialog.getByText('is wrong').waitFor();
    expect((await h.api.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: liveKey } })).status).toBe(200);

    // Enter in the field confirms too.
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByLabel('Password').press('Enter');
    await page.waitForURL((url) => url.pathname === '/login');
    expect(await page.getByTestId('account-deleted').innerText()).toBe('Your account was deleted and you were signed out everywhere.');

    // Done on the server: the project archived with its tasks cancelled, the key refused, the password gone.
    const [project] = await h.api.db.query('SELECT archived_at IS NOT NULL AS archived FROM projects WHERE id = $1', [projectUuid]);
    expect(project).toEqual({ archived: true });
    expect(await h.api.db.query('SELECT count(*)::int AS n FROM tasks WHERE project_id = $1 AND cancelled_at IS NULL', [projectUuid])).toEqual([{ n: 0 }]);
    expect((await h.api.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: liveKey } })).status).toBe(401);
    await page.getByLabel('Email').fill(requester.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('email or password is wrong').waitFor();
  });

  it('after an answer lost on its way back, says the account may have been deleted; the next try finds it was and asks to log in', async () => {
    const h = harness();
    const worker = await aWorker(h, 'Lena Lost');
    const page = await h.newPage({ as: worker });
    await page.goto('/account');
    const account = new AccountPage(page);
    const dialog = await account.openDeleteAccount();

    const held = await holdNextRequest(page, '**/api/session/delete_account');
    await account.confirmDeleteAccount(dialog, PASSWORD);
    const route = await held.reached;
    // The server deletes; a proxy loses its answer.
    expect((await route.fetch()).status()).toBe(200);
    await route.fulfill({ status: 502, contentType: 'text/html', body: '<h1>502 Bad Gateway</h1>' });
    expect(await dialog.getByTestId('error-list').innerText()).toContain('No answer from the server: your account may have been deleted.');
    h.takeConsoleErrors(); // Chromium logs the 502 it was given

    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/account');
    h.takeConsoleErrors(); // and the 401 of the session that ended
  });
});
