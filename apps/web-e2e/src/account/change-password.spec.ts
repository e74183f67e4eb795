import type { Page } from 'playwright-core';
import type { SignedIn } from '../../support/server/api-server';
import { expectEventually } from '../../support/expect-eventually';
import { useHarness, type Harness } from '../../support/harness';
import { holdNextRequest } from '../../support/hold-request';
import { AccountPage } from '../../support/pages/account.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { aProjectWithTasks, aWorker, PASSWORD } from '../../support/scenario';

const harness = useHarness();
const NEW_PASSWORD = 'a brand new passphrase';

/** The focused element: its id, else its tag and text (a button's label); BODY when nothing has the focus. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'BODY';
    return el.id || `${el.tagName} ${el.innerText}`;
  });
}

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
    await page.getByRole('heading', { name: 'Account', exact: true }).waitFor();
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

  it('keeps the keyboard in the form: on the button while the change is sent, then on the field that was refused', async () => {
    const h = harness();
    const worker = await aWorker(h, 'Kira Keyboard');
    const page = await h.newPage({ as: worker });
    await page.goto('/account');
    const account = new AccountPage(page);
    await account.form.getByLabel('Current password').fill('not my password');
    await account.form.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await account.form.getByLabel('Confirm new password').fill(NEW_PASSWORD);

    // The change is held on its way until the test lets it through.
    const change = await holdNextRequest(page, '**/api/session/password');
    await account.form.getByRole('button', { name: 'Change password' }).focus();
    await page.keyboard.press('Enter');
    await change.reached;
    await account.form.getByRole('button', { name: 'Please wait…' }).waitFor();
    expect(await focused(page)).toBe('BUTTON Please wait…');

    await change.release();
    await account.fieldError('Current password').waitFor();
    await expectEventually(async () => (await focused(page)) === 'account-current_password', 'the focus on Current password', () => focused(page));
    expect(await page.locator('#account-current_password').getAttribute('aria-describedby')).toBe('account-current_password-error');

    // The browser's own check (the confirmation) moves the focus the same way.
    await account.form.getByLabel('Current password').fill(PASSWORD);
    await account.form.getByLabel('Confirm new password').fill('a brand new typo');
    await account.form.getByLabel('Current password').press('Enter');
    await account.fieldError('Confirm new password').waitFor();
    expect(await focused(page)).toBe('account-confirm');
  });
});
