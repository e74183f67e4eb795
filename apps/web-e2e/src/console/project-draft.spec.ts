import type { Page } from 'playwright-core';
import { useHarness, type Harness } from '../../support/harness';
import { aProjectWithTasks, PASSWORD } from '../../support/scenario';
import { signUp, type SignedIn } from '../../support/server/api-server';
import { ProjectFormPage } from './console.pages';

const harness = useHarness();
const TEMPLATE = '<h3>Box every [[thing]]</h3>\n<p>Long instructions that took a while to write: include reflections, leave out posters.</p>';

/**
 * The page's session ends elsewhere (log-out in another tab, with the same session): the page keeps its
 * cookie, which the server no longer knows, and learns so from the next call's 401.
 */
async function endSession(h: Harness, page: Page): Promise<void> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'cb_session');
  if (!cookie) throw new Error('the page has no session cookie');
  expect((await h.api.request({ method: 'POST', url: '/api/session/logout', headers: { authorization: `Bearer ${cookie.value}` } })).status).toBe(200);
}

/** On the log-in page a 401 sent the user to: logs in and waits to be back on `path`. */
async function logInAgain(page: Page, user: SignedIn, path: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('next') === path);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((url) => url.pathname === path);
}

function formDraftKeys(page: Page): Promise<string[]> {
  return page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('crowdbox:form-draft:')));
}

describe('a project form typed while the session ends', () => {
  it('gives the New project form back after logging in again, and forgets it once the project is created', async () => {
    const h = harness();
    const rita = await signUp(h.api, { name: 'Rita Requester', password: PASSWORD });
    const page = await h.newPage({ as: rita });
    await page.goto('/console/projects/new');
    const form = new ProjectFormPage(page);
    await form.fillAbout({ name: 'street-2025', displayName: 'Find cars and people', description: 'Box every car and every person.' });
    await form.field('Template (HTML)').fill(TEMPLATE);
    await form.variableRow('thing').waitFor();
    await form.setDefault('thing', 'car');
    await form.setLabel(0, 'car', '#17becf');
    await form.setLabel(1, 'person', '#9467bd');
    await form.field('Reward (cents)').fill('25');
    expect(await page.getByTestId('draft-restored').count()).toBe(0);

    await endSession(h, page);
    await form.create();
    await logInAgain(page, rita, '/console/projects/new');

    await page.getByTestId('draft-restored').waitFor();
    expect(await page.getByTestId('draft-restored').innerText()).toContain('Restored what you typed before you were signed out');
    expect(await form.field('Name').inputValue()).toBe('street-2025');
    expect(await form.field('Display name').inputValue()).toBe('Find cars and people');
    expect(await form.field('Short description').inputValue()).toBe('Box every car and every person.');
    expect(await form.field('Template (HTML)').inputValue()).toBe(TEMPLATE);
    expect(await page.getByLabel('Default for thing', { exact: true }).inputValue()).toBe('car');
    expect(await form.field('Name of label 2').inputValue()).toBe('person');
    expect(await form.field('Colour of label 2').inputValue()).toBe('#9467bd');
    expect(await form.field('Reward (cents)').inputValue()).toBe('25');
    await form.expectPreview('Box every car');

    await form.create();
    await page.waitForURL(/\/console\/projects\/[0-9a-f-]{36}$/);
    const projectUuid = new URL(page.url()).pathname.split('/').pop();
    const created = (await (await page.request.get(`/api/console/projects/${projectUuid}`)).json()).data;
    expect(created).toMatchObject({ name: 'street-2025', default_reward: 25, labels: [{ name: 'car' }, { name: 'person' }] });
    expect(await formDraftKeys(page)).toEqual([]);

    // A new project starts from the blank form again.
    await page.goto('/console/projects/new');
    await form.field('Name').waitFor();
    expect(await form.field('Name').inputValue()).toBe('');
    expect(await form.field('Template (HTML)').inputValue()).not.toBe(TEMPLATE);
    expect(await page.getByTestId('draft-restored').count()).toBe(0);
  });

  it("never shows one user's draft to another user of the tab, and discards a draft on request", async () => {
    const h = harness();
    const rita = await signUp(h.api, { name: 'Rita Requester', password: PASSWORD });
    const sam = await signUp(h.api, { name: 'Sam Shared-Desk', password: PASSWORD });
    const page = await h.newPage({ as: rita });
    await page.goto('/console/projects/new');
    const form = new ProjectFormPage(page);
    await form.field('Name').fill('rita-secret-project');

    await endSession(h, page);
    await form.create();
    await logInAgain(page, sam, '/console/projects/new');
    await form.field('Name').waitFor();
    expect(await form.field('Name').inputValue()).toBe('');
    expect(await page.getByTestId('draft-restored').count()).toBe(0);

    // Sam logs out; Rita comes back to her draft, and throws it away.
    await page.getByTestId('user-menu').click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/login/);
    await page.goto('/console/projects/new');
    await logInAgain(page, rita, '/console/projects/new');
    await page.getByTestId('draft-restored').waitFor();
    expect(await form.field('Name').inputValue()).toBe('rita-secret-project');
    await page.getByRole('button', { name: 'Discard it' }).click();
    expect(await form.field('Name').inputValue()).toBe('');
    expect(await page.getByTestId('draft-restored').count()).toBe(0);
    expect(await formDraftKeys(page)).toEqual([]);
  });

  it('gives the Settings form back over the same version of the project, never over a newer one', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 0 });
    const settings = `/console/projects/${projectUuid}/settings`;
    const page = await h.newPage({ as: requester });
    await page.goto(settings);
    const form = new ProjectFormPage(page);
    await form.field('Template (HTML)').fill(TEMPLATE);

    await endSession(h, page);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await logInAgain(page, requester, settings);
    await page.getByTestId('draft-restored').waitFor();
    expect(await form.field('Template (HTML)').inputValue()).toBe(TEMPLATE);

    // Signed out again; meanwhile the project is changed elsewhere: the draft must not overwrite that.
    await endSession(h, page);
    await form.field('Display name').fill('Typed over an old version');
    await page.getByRole('button', { name: 'Save changes' }).click();
    const other = await anotherSession(h, requester);
    expect((await h.api.request({ method: 'PATCH', url: `/api/console/projects/${projectUuid}`, headers: other.auth, body: { display_name: 'Renamed elsewhere' } })).status).toBe(200);
    await logInAgain(page, requester, settings);
    await page.getByTestId('draft-outdated').waitFor();
    expect(await form.field('Display name').inputValue()).toBe('Renamed elsewhere');
    expect(await page.getByTestId('draft-restored').count()).toBe(0);
    expect(await formDraftKeys(page)).toEqual([]);
  });
});

/** The same user logged in a second time, as from another device. */
async function anotherSession(h: Harness, user: SignedIn): Promise<SignedIn> {
  const res = await h.api.request({ method: 'POST', url: '/api/session/login', body: { email: user.email, password: PASSWORD } });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
  return { ...user, token: res.body.data.token, auth: { authorization: `Bearer ${res.body.data.token}` } };
}
