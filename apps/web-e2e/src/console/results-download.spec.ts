import { readFile } from 'node:fs/promises';
import { useHarness, type Harness } from '../../support/harness';
import type { SignedIn } from '../../support/server/api-server';
import { aProjectWithTasks, aWorker } from '../../support/scenario';
import { ProjectOverviewPage, TaskDetailPage } from './console.pages';

const harness = useHarness();

/** `worker` checks out the project's next task and submits `annotations` drawn on a 960x640 image; the task's UUID. */
async function complete(h: Harness, worker: SignedIn, projectUuid: string, annotations: object[]): Promise<string> {
  const lease = await h.api.request({ method: 'POST', url: '/api/work/checkouts', headers: worker.auth, body: { project_uuid: projectUuid } });
  if (lease.status !== 201) throw new Error(`checkout answered ${lease.status}: ${lease.text}`);
  const { checkout_id, task_uuid } = lease.body.data;
  const submit = await h.api.request({
    method: 'POST',
    url: `/api/work/checkouts/${checkout_id}/submit`,
    headers: worker.auth,
    body: { annotations, image_width: 960, image_height: 640 },
  });
  if (submit.status !== 201) throw new Error(`submit answered ${submit.status}: ${submit.text}`);
  return task_uuid;
}

describe('the project page’s results downloads', () => {
  it('downloads the results as CSV: a header, a record per box, an empty task as one record', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 2, requiredSubmissions: 1 });
    const worker = await aWorker(h);
    const withBox = await complete(h, worker, projectUuid, [{ label: 'car', center_x: 200, center_y: 150, width: 101, height: 60 }]);
    const empty = await complete(h, await aWorker(h, 'Walt Worker'), projectUuid, []);
    const completedAt = (await h.api.request({ method: 'GET', url: `/api/console/projects/${projectUuid}/results`, headers: requester.auth })).body.data.map(
      (e: { completed_at: string }) => e.completed_at,
    );

    const page = await h.newPage({ as: requester });
    const overview = new ProjectOverviewPage(page);
    await overview.open(projectUuid);
    const button = page.getByTestId('download-csv');
    expect(await button.innerText()).toBe('Download CSV');
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(download.suggestedFilename()).toBe(`crowdbox-${projectUuid}.csv`);
    const text = await readFile(await download.path(), 'utf8');
    const [imageUrl] = /^[^,]+,([^,]+),/m.exec(text.split('\r\n')[1])?.slice(1) ?? [];
    expect(imageUrl).toMatch(/^http/);
    expect(text.split('\r\n').slice(0, 3)).toEqual([
      'task_uuid,external_image_url,completed_at,image_width,image_height,label,x_min,y_min,x_max,y_max,support,agreement',
      `${withBox},${imageUrl},${completedAt[0]},960,640,car,149.5,120,250.5,180,1,1`,
      expect.stringMatching(new RegExp(`^${empty},[^,]+,${completedAt[1].replace(/\./g, '\\.')},960,640,,,,,,,$`)),
    ]);
  });

  it('offers the same three downloads of the project’s results on a task’s page', async () => {
    const h = harness();
    const { requester, projectUuid } = await aProjectWithTasks(h, { tasks: 1, requiredSubmissions: 1 });
    const taskUuid = await complete(h, await aWorker(h), projectUuid, [{ label: 'car', center_x: 200, center_y: 150, width: 100, height: 60 }]);

    const page = await h.newPage({ as: requester });
    await new TaskDetailPage(page).open(projectUuid, taskUuid);
    const download = async (name: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name, exact: true }).click()]);
      return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
    };

    const csv = await download('CSV');
    expect(csv.name).toBe(`crowdbox-${projectUuid}.csv`);
    expect(csv.text.split('\r\n').slice(0, 2)).toEqual([
      'task_uuid,external_image_url,completed_at,image_width,image_height,label,x_min,y_min,x_max,y_max,support,agreement',
      expect.stringMatching(new RegExp(`^${taskUuid},[^,]+,[^,]+,960,640,car,150,120,250,180,1,1$`)),
    ]);
    const json = await download('All results as JSON');
    expect(json.name).toBe(`crowdbox-${projectUuid}.json`);
    expect(JSON.parse(json.text).data.map((e: { task_uuid: string }) => e.task_uuid)).toEqual([taskUuid]);
    const coco = await download('COCO');
    expect(coco.name).toBe(`crowdbox-${projectUuid}-coco.json`);
    expect(JSON.parse(coco.text).annotations).toEqual([expect.objectContaining({ bbox: [150, 120, 100, 60] })]);
  });
});
