import type { Page } from 'playwright-core';
import { expectEventually } from '../../support/expect-eventually';
import { useHarness } from '../../support/harness';
import { holdNextRequest, loseNextAnswer } from '../../support/hold-request';
import { aWorker } from '../../support/scenario';

const harness = useHarness();

/** The focused element: its id, else its tag and text (a button's label); BODY when nothing has the focus. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'BODY';
    return el.id || `${el.tagName} ${el.innerText}`;
  });
}

describe('log-in and sign-up from the keyboard', () => {
  it('keeps the focus on the button while signing up, then moves it to the field the server refused', async () => {
    const h = harness();
    const page = await h.newPage();
    await page.goto('/signup');
    await page.getByLabel('Your name').fill('Kai Keys');
    await page.getByLabel('Email').fill('kai@example.com');
    await page.getByLabel('Password').fill('short');
    const signup = await holdNextRequest(page, '**/api/session/signup');
    await page.getByRole('button', { name: 'Create an account' }).focus();
    await page.keyboard.press('Enter');
    await signup.reached;
    await page.getByRole('button', { name: 'Please wait…' }).waitFor();
    expect(await focused(page)).toBe('BUTTON Please wait…');

    await signup.release();
    await expectEventually(async () => (await focused(page)) === 'auth-password', 'the focus on Password', () => focused(page));
    // Its error is read with it.
    expect(await page.locator('#auth-password').getAttribute('aria-describedby')).toBe('auth-password-error');
    expect(await page.locator('#auth-password-error').innerText()).toBe('must be at least 8 characters');
  });

  it('moves the focus to the error summary when the answer belongs to no field; Tab then leads to Email', async () => {
    const h = harness();
    const worker = await aWorker(h, 'Lou Login');
    const page = await h.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(worker.email);
    await page.getByLabel('Password').fill('not the password');
    const login = await holdNextRequest(page, '**/api/session/login');
    await page.getByLabel('Password').press('Enter');
    await login.reached;
    expect(await focused(page)).toBe('auth-password');
    await page.getByRole('button', { name: 'Please wait…' }).waitFor();
    await login.release();
    const summary = page.getByRole('alert').filter({ hasText: 'email or password is wrong' });
    await summary.waitFor();
    await expectEventually(async () => (await focused(page)) === 'DIV email or password is wrong', 'the focus on the summary', () => focused(page));
    // From the summary, Tab leads into the form; the error, the form's own, stays while a field is edited.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('auth-email');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('auth-password');
    await page.keyboard.type('x');
    expect(await summary.isVisible()).toBe(true);
    // Show (beside the password) is a toggle, not a submit, and sending the form hides the password again.
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('BUTTON Show');
    await page.keyboard.press('Enter');
    expect(await page.locator('#auth-password').getAttribute('type')).toBe('text');
    expect(await focused(page)).toBe('BUTTON Hide');
    await page.locator('#auth-password').press('Enter');
    await expectEventually(async () => (await page.locator('#auth-password').getAttribute('type')) === 'password', 'the password hidden again');
  });

  it('after a sign-up that got no answer, says the account may have been made, which the next try then confirms', async () => {
    const h = harness();
    const page = await h.newPage();
    await page.goto('/signup');
    await page.getByLabel('Your name').fill('Lena Lost');
    await page.getByLabel('Email').fill('lena@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    // The server makes the account; the answer (and its session cookie) is lost on the way back.
    await loseNextAnswer(page, '**/api/session/signup');
    await page.getByRole('button', { name: 'Create an account' }).click();
    await page.getByText('No answer from the server: your account may have been made. Log in with this email and password.').waitFor();
    await page.getByTestId('signup-form').getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Email').fill('lena@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { name: 'Find work' }).waitFor();
    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);
  });
});
