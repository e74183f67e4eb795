import type { Page } from 'playwright-core';

/** The log-in form, reached the way a signed-out user reaches it: by opening a page that needs a session. */
export class LoginPage {
  constructor(readonly page: Page) {}

  /** Opens `path` signed out, lands on /login?next=…, logs in and ends up back on `path`. */
  async logInVia(path: string, email: string, password: string): Promise<void> {
    await this.page.goto(path);
    await this.page.waitForURL(/\/login\?next=/);
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Log in' }).click();
    await this.page.waitForURL((url) => url.pathname === path);
  }
}
