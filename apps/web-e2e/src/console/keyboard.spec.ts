import type { Page } from 'playwright-core';
import { useHarness } from '../../support/harness';
import { expectEventually } from '../../support/expect-eventually';
import { holdNextRequest } from '../../support/hold-request';
import { aProjectWithTasks } from '../../support/scenario';
import { ApiKeysPage, ProjectFormPage, ProjectOverviewPage } from './console.pages';

const harness = useHarness();

/** The focused element's data-testid, or its tag name when it has none. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? document.activeElement?.tagName ?? '');
}

/** Every field error under the form, each with the input that names it in aria-describedby. */
function fieldErrors(page: Page): Promise<Array<{ error: string; input: string | null }>> {
  return page.locator('form .field-error').evaluateAll((errors) =>
    errors.map((e) => {
      const input = e.id ? document.querySelector(`[aria-invalid="true"][aria-describedby~="${CSS.escape(e.id)}"]`) : null;
      return { error: e.textContent ?? '', input: input?.getAttribute('aria-label') ?? (input?.id ? document.querySelector(`label[for="${CSS.escape(input.id)}"]`)?.textContent ?? input.id : null) };
    }),
  );
}

describe('the console from the keyboard', () => {
  it('moves the focus to what happened after revoking a key and after cancelling tasks', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 2 });
    const page = await h.newPage({ as: requester });
    const keys = new ApiKeysPage(page);
    await keys.open();
    await page.getByRole('button', { name: /^Revoke key cb_live_/ }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke key' }).click();
    await expectEventually(async () => (await focused(page)) === 'key-revoked', 'the focus on the revocation notice', () => focused(page));
    expect(await page.getByTestId('key-revoked').innerText()).toMatch(/^Key cb_live_[\w-]+… is revoked/);

    const overview = new ProjectOverviewPage(page);
    await overview.open(projectUuid);
    await overview.openCancelDialog();
    await overview.confirmCancel();
    await expectEventually(async () => (await focused(page)) === 'cancel-result', 'the focus on the cancel result', () => focused(page));
  });

  it('keeps a destructive dialog open while its request runs, Escape or not', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 0 });
    const page = await h.newPage({ as: requester });
    const keys = new ApiKeysPage(page);
    await keys.open();
    // The revocation is held on its way until the test lets it through.
    const revocation = await holdNextRequest(page, (url) => url.pathname.startsWith('/api/console/api_keys/'));
    await page.getByRole('button', { name: /^Revoke key cb_live_/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await revocation.reached;
    await dialog.getByRole('button', { name: 'Working…' }).waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    // Chromium closes a dialog on a second Escape with no click between, whatever its cancel handler
    // does; the busy dialog shows itself again from its close event, which comes a task later. So it may
    // be hidden for that moment (a CI run looked then), and must be back, still working, and stay.
    await expectEventually(async () => dialog.isVisible(), 'the busy dialog shown again');
    await page.waitForTimeout(300);
    expect(await dialog.isVisible()).toBe(true);
    expect(await dialog.getByRole('button', { name: 'Working…' }).count()).toBe(1);

    await revocation.release();
    await page.getByTestId('key-revoked').waitFor();
    await dialog.waitFor({ state: 'hidden' });
  });

  it('links every field error of the project form to its input', async () => {
    const h = harness();
    const { requester } = await aProjectWithTasks(h, { tasks: 0 });
    const page = await h.newPage({ as: requester });
    await page.goto('/console/projects/new');
    const form = new ProjectFormPage(page);
    await form.fillAbout({ name: 'errors', displayName: 'Errors', description: 'x'.repeat(1001) });
    await form.field('Template (HTML)').fill('<p>[[thing]]</p>');
    await form.setDefault('thing', 'y'.repeat(10_001));
    await form.field('Image variable').fill('bad name!');
    await form.create();
    await expectEventually(async () => (await fieldErrors(page)).length >= 3, 'three field errors');
    const errors = await fieldErrors(page);
    expect(errors.map((e) => e.input)).toEqual(['Short description', 'Default for thing', 'Image variable']);

    await form.field('Template (HTML)').fill('');
    await form.create();
    await expectEventually(async () => (await fieldErrors(page)).some((e) => e.input === 'Template (HTML)'), 'the template’s error');
    expect((await fieldErrors(page)).filter((e) => e.input === null)).toEqual([]);
  });
});
