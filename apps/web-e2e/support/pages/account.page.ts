import type { Download, Locator, Page } from 'playwright-core';

/** /account — change the password, the signed-in devices (sign one or all others out), download one's data, delete the account; reached from the user menu. */
export class AccountPage {
  readonly form: Locator;

  constructor(readonly page: Page) {
    this.form = page.getByTestId('change-password-form');
  }

  /** Opens the page the way a user does: the user menu in the top bar, then Account. */
  async openFromMenu(): Promise<this> {
    await this.page.getByTestId('user-menu').click();
    await this.page.getByRole('link', { name: 'Account' }).click();
    await this.page.waitForURL((url) => url.pathname === '/account');
    await this.page.getByRole('heading', { name: 'Change password' }).waitFor();
    return this;
  }

  /** Fills the form and sends it; `confirm` defaults to the new password. */
  async changePassword(current: string, next: string, confirm = next): Promise<void> {
    await this.form.getByLabel('Current password').fill(current);
    await this.form.getByLabel('New password', { exact: true }).fill(next);
    await this.form.getByLabel('Confirm new password').fill(confirm);
    await this.form.getByRole('button', { name: 'Change password' }).click();
  }

  /** The error shown under one field (by its label). */
  fieldError(label: string): Locator {
    return this.form.locator('.field', { has: this.page.getByLabel(label, { exact: true }) }).locator('.field-error');
  }

  /** The rows of "Signed-in devices", in the API's order (the most recently used first). */
  get deviceRows(): Locator {
    return this.page.getByTestId('device-row');
  }

  /** The row of the device named `name`, e.g. "Firefox on Windows". */
  deviceRow(name: string): Locator {
    return this.deviceRows.filter({ hasText: name });
  }

  /** Presses Sign out on the row of the device named `name`. */
  async signOutDevice(name: string): Promise<void> {
    await this.deviceRow(name).getByRole('button', { name: new RegExp(`^Sign out ${escapeRegExp(name)}`) }).click();
  }

  async signOutOthers(): Promise<void> {
    await this.page.getByRole('button', { name: 'Sign out of other sessions' }).click();
  }

  /** Clicks "Download your data" in its section; the file the browser saved. */
  async downloadYourData(): Promise<Download> {
    const link = this.page.getByRole('region', { name: 'Your data' }).getByRole('link', { name: 'Download your data' });
    const [download] = await Promise.all([this.page.waitForEvent('download'), link.click()]);
    return download;
  }

  /** Opens the Delete account confirmation; the dialog. */
  async openDeleteAccount(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Delete account…' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.waitFor();
    return dialog;
  }

  /** In the open confirmation: types the password and confirms. */
  async confirmDeleteAccount(dialog: Locator, password: string): Promise<void> {
    await dialog.getByLabel('Password').fill(password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
