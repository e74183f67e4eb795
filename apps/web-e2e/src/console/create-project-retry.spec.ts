import { loseNextAnswer } from '../../support/hold-request';
import { useHarness } from '../../support/harness';
import { signUp } from '../../support/server/api-server';
import { ProjectFormPage } from './console.pages';

const harness = useHarness();

/**
 * Create project after an answer that never came (docs/console.md, "No answer"): the form sends the same
 * Idempotency-Key while it is unchanged, so pressing Create project again opens the project the first
 * press made instead of making a second.
 */
describe('creating a project whose answer is lost', () => {
  it('says to press Create project again, and that press opens the one project the first made', async () => {
    const h = harness();
    const requester = await signUp(h.api, { name: 'Rita Requester' });
    const page = await h.newPage({ as: requester });
    await page.goto('/console/projects/new');
    const form = new ProjectFormPage(page);
    await form.fillAbout({ name: 'lost-answer', displayName: 'Lost answer', description: 'Box every car.' });
    await form.field('Template (HTML)').fill('<p>Box every car</p>');
    await form.setLabel(0, 'car', '#e4572e');
    await form.field('Required submissions').fill('3');
    await form.field('Reward (cents)').fill('25');
    await form.field('Time allowed (seconds)').fill('600');
    // The server makes the project; its answer is lost on the way back.
    await loseNextAnswer(page, '**/api/console/projects');
    await form.create();
    await page.getByText('Press Create project again without changing the form').waitFor();

    await form.create();
    await page.waitForURL(/\/console\/projects\/[0-9a-f-]{36}$/);
    const opened = new URL(page.url()).pathname.split('/').pop();
    const projects = await h.api.request({ method: 'GET', url: '/api/console/projects', headers: requester.auth });
    expect(projects.body.data.map((p: { uuid: string }) => p.uuid)).toEqual([opened]);
    for (const error of h.takeConsoleErrors()) expect(error).toMatch(/Failed to load resource: net::ERR_FAILED/);
  });
});
