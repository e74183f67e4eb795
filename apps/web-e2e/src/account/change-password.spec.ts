import type { SignedIn } from '../../support/server/api-server';
import { useHarness, type Harness } from '../../support/harness';
import { AccountPage } from '../../support/pages/account.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { aProjectWithTasks, aWorker, PASSWORD } from '../../support/scenario';

const harness = useHarness();
const NEW_PASSWORD = 'a brand new passphrase';

/** The same user logged in a second time, as from another device. */
async function anotherSession(h: Harness, user: SignedIn, password = PASSWORD): Promise<SignedIn> {
  const res = await h.api.request({ method: 'POST', url: '/api/session/login', body: { email: user.email, password } });
  if (res.status !== 200) throw new Error(`log-in failed: ${res.status} ${res.text}`);
  return { ...user, token: res.body.data.token, auth: { authorization: `Bearer ${res.body.data.token}` } };
}

describe('the account page', () => {
  it('changes the password: the other device is sent to log in on its next call, and the new password logs in', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 1, displayName: 'Harbour boats' });
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });
    const phone = await h.newPage({ as: await anotherSession(h, worker) });
    const phoneList = await new WorkProjectsPage(phone).goto();
    await phoneList.project('Harbour boats').waitFor();

    await new WorkProjectsPage(page).goto();
    const account = await new AccountPage(page).openFromMenu();

    // The API's field errors appear under their fields, and a mismatch is caught before anything is sent.
    await account.changePassword('not my password', NEW_PASSWORD);
    expect(await account.fieldError('Current password').innerText()).toBe('is wrong');
    await account.changePassword(PASSWORD, 'short');
    expect(await account.fieldError('New password').innerText()).toBe('must be at least 8 characters');
    await account.changePassword(PASSWORD, NEW_PASSWORD, 'a brand new typo');
    expect(await account.fieldError('Confirm new password').innerText()).toBe('does not match the new password');

    await account.changePassword(PASSWORD, NEW_PASSWORD);
    expect(await page.getByTestId('password-changed').innerText()).toBe('Your password was changed. 1 other session was signed out.');
    expect(await account.form.getByLabel('Current password').inputValue()).toBe('');
    await h.screenshot(page, 'account');

    // The phone still shows the list it loaded; its next API call answers 401 and the app asks to log in.
    await phoneList.start('Harbour boats');
    await phone.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === `/work/${project.projectUuid}`);
    await phone.getByLabel('Email').fill(worker.email);
    await phone.getByLabel('Password').fill(PASSWORD);
    await phone.getByRole('button', { name: 'Log in' }).click();
    await phone.getByText('email or password is wrong').waitFor();
    await phone.getByLabel('Password').fill(NEW_PASSWORD);
    await phone.getByRole('button', { name: 'Log in' }).click();
    await phone.waitForURL((url) => url.pathname === `/work/${project.projectUuid}`);
    await phone.getByTestId('task-workspace').waitFor();

    // This device stayed signed in.
    await page.reload();
    await page.getByRole('heading', { name: 'Account' }).waitFor();
  });

  it('signs a requester out of the other sessions from the console', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 0 });
    const page = await h.newPage({ as: requester });
    const laptop = await h.newPage({ as: await anotherSession(h, requester) });
    await laptop.goto('/console');
    await laptop.getByRole('heading', { name: 'Projects' }).waitFor();

    await page.goto('/console');
    const account = await new AccountPage(page).openFromMenu();
    await account.signOutOthers();
    expect(await page.getByTestId('others-signed-out').innerText()).toBe('1 other session was signed out.');

    await laptop.getByRole('link', { name: 'API keys' }).click();
    await laptop.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === '/console/keys');
    await page.getByRole('link', { name: 'Console' }).click();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
  });
});
