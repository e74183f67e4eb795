import type { Page } from 'playwright-core';
import { expectEventually } from '../../support/expect-eventually';
import { withExifOrientation, withExifResolution } from '../../support/exif';
import { useHarness } from '../../support/harness';
import { boxMatches, type ImageBox, type ImageRect, type StageGeometry } from '../../support/pages/annotator.page';
import { LoginPage } from '../../support/pages/login.page';
import { TaskPage } from '../../support/pages/task.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { aProjectWithTasks, aWorker, aWorkerOnATask, PASSWORD } from '../../support/scenario';

const harness = useHarness();

const describeBox = (b: ImageBox) => `${b.label} ${b.center_x},${b.center_y} ${b.width}x${b.height}`;
const describeRect = (label: string, r: ImageRect) =>
  `${label} ${((r.x0 + r.x1) / 2).toFixed(1)},${((r.y0 + r.y1) / 2).toFixed(1)} ${(r.x1 - r.x0).toFixed(1)}x${(r.y1 - r.y0).toFixed(1)}`;

/** 'red' or 'blue' (or the colour seen) where the stage shows an image-relative point. */
const colourAt = (page: Page, g: StageGeometry, fx: number, fy: number) =>
  page.evaluate(
    ({ x, y }) => {
      const canvas = document.querySelector('[data-testid="annotator-stage"] canvas') as HTMLCanvasElement;
      const ratio = canvas.width / canvas.clientWidth;
      const [r, , b] = (canvas.getContext('2d') as CanvasRenderingContext2D).getImageData(Math.round(x * ratio), Math.round(y * ratio), 1, 1).data;
      return r > 150 && b < 100 ? 'red' : b > 150 && r < 100 ? 'blue' : `rgb ${r},${b}`;
    },
    { x: g.offsetX + fx * g.image.width * g.scale, y: g.offsetY + fy * g.image.height * g.scale },
  );


/** A 240x120 JPEG as Chromium encodes it, base64: left half red, right half blue. */
function redBlueJpeg(page: Page): Promise<string> {
  return page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 240;
    canvas.height = 120;
    const ctx = canvas.getContext('2d') as CanvasRenderingContext2D;
    ctx.fillStyle = '#dc0000';
    ctx.fillRect(0, 0, 120, 120);
    ctx.fillStyle = '#0000dc';
    ctx.fillRect(120, 0, 120, 120);
    return canvas.toDataURL('image/jpeg', 0.95).split(',')[1];
  });
}

describe('annotating a task', () => {
  it('draws at a zoom other than 1, relabels by key, resizes, deletes and undoes, submits; the requester reads the same boxes', async () => {
    const h = harness();
    const project = await aProjectWithTasks(h, { tasks: 2, displayName: 'Street scenes', image: { width: 960, height: 640 } });
    const worker = await aWorker(h);
    const page = await h.newPage();

    await new LoginPage(page).logInVia('/work', worker.email, PASSWORD);
    await new WorkProjectsPage(page).start('Street scenes');
    const task = new TaskPage(page);
    await task.waitForTask();
    const annotator = task.annotator;
    const firstCheckout = await task.checkoutId();
    expect(await task.prompt.innerText()).toContain('Draw a box around every car and every person in the street.');
    await h.screenshot(page, 'work-annotator-empty');

    // Zoom in with the wheel over the middle of the image: the scale is now neither 1 nor the fit.
    const fitScale = (await annotator.geometry()).scale;
    const scale = await annotator.wheelZoom(0.5, 0.5, -120);
    expect(scale).toBeGreaterThan(fitScale * 1.1);
    expect(Math.abs(scale - 1)).toBeGreaterThan(0.05);
    for (const [fx, fy] of [[0.12, 0.5], [0.85, 0.88]]) expect(await annotator.isVisible(fx, fy)).toBe(true);

    // Two boxes with the mouse, on the red and the blue car; both get the first label.
    const red = await annotator.drawBox(0.15, 0.55, 0.38, 0.78);
    const blue = await annotator.drawBox(0.56, 0.6, 0.8, 0.82);
    await annotator.expectBoxes(2);
    expect((await annotator.boxes()).map((b) => b.label)).toEqual(['car', 'car']);

    // Relabel the second box by key: 2 is the second label, "person".
    await annotator.selectBox(1);
    await annotator.press('2');
    await expectEventually(async () => (await annotator.boxes())[1]?.label === 'person', 'the second box to become a person');

    // Resize the first box by its bottom-right handle (it must be selected to show the handles).
    await annotator.selectBox(0);
    const [stored] = await annotator.boxes();
    expect(boxMatches(stored, red)).toBe(true);
    const resized = await annotator.resizeBottomRight(stored, 0.42, 0.86);
    await expectEventually(async () => boxMatches((await annotator.boxes())[0], resized), 'the first box to take its new size', async () =>
      `${describeBox((await annotator.boxes())[0])} vs ${describeRect('car', resized)}`,
    );

    // Delete the second box, then undo: it comes back with its label.
    await annotator.selectBox(1);
    await annotator.press('Delete');
    await annotator.expectBoxes(1);
    await annotator.press('Control+z');
    await annotator.expectBoxes(2);
    const final = await annotator.boxes();
    expect(final.map((b) => b.label)).toEqual(['car', 'person']);
    // Fit the whole image back on screen ("0") for the picture.
    await annotator.press('0');
    await expectEventually(async () => (await annotator.geometry()).scale === fitScale, 'the view to fit the image again');
    await h.screenshot(page, 'work-annotator-boxes');

    // The keymap, from "?".
    await annotator.stage.focus();
    await annotator.press('?');
    await annotator.keymap.waitFor();
    await h.screenshot(page, 'work-annotator-keymap');
    await annotator.press('Escape');
    await annotator.keymap.waitFor({ state: 'hidden' });

    // Submit: the next task of the project comes straight away.
    await task.submit();
    await task.notice.getByText('Submitted 2 boxes. You earned $0.25.').waitFor();
    await task.waitForTask();
    expect(await task.checkoutId()).not.toBe(firstCheckout);
    await annotator.expectBoxes(0);

    // The requester reads the worker's own boxes: within 1 image pixel of what was drawn.
    const res = await h.api.request({
      method: 'GET',
      url: `/api/v1/tasks/${project.taskUuids[0]}/annotations?view=submissions`,
      headers: { apikey: project.liveKey },
    });
    expect(res.status).toBe(200);
    const submissions = res.body.data.submissions as Array<{ annotations: ImageBox[] }>;
    expect(submissions).toHaveLength(1);
    const sent = submissions[0].annotations;
    expect(sent).toHaveLength(2);
    const expected: Array<[string, ImageRect]> = [
      ['car', resized],
      ['person', blue],
    ];
    for (const [label, rect] of expected) {
      const match = sent.find((b) => b.label === label && boxMatches(b, rect));
      if (!match) throw new Error(`no submitted box matches ${describeRect(label, rect)}; got ${sent.map(describeBox).join(', ')}`);
      for (const v of [match.center_x, match.center_y, match.width, match.height]) expect(Number.isInteger(v)).toBe(true);
    }
    // The worker's earnings count it.
    const earnings = await h.api.request({ method: 'GET', url: '/api/work/earnings', headers: worker.auth });
    expect(earnings.body.data.earned_cents).toBe(25);

    // And so does the work list's table: its numbers line up on the right, and it scrolls in its own box.
    await new WorkProjectsPage(page).goto();
    const byProject = page.getByRole('region', { name: 'Earnings by project' });
    await byProject.locator('td.num').first().waitFor();
    const aligns = await byProject.locator('th.num, td.num').evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell).textAlign));
    expect(aligns).toEqual(['right', 'right', 'right', 'right']);
    expect(await byProject.locator('.table-scroll').evaluate((el) => getComputedStyle(el).position)).toBe('relative');
  });

  it('takes a photo with EXIF orientation in the frame the browser shows: its boxes and image size are the rotated ones', async () => {
    const h = harness();
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });

    // Stored 240x120, left half red and right half blue; orientation 6 shows it turned 90° clockwise:
    // 120x240, red on top. Chromium encodes the JPEG, the test adds the EXIF segment.
    const stored = await redBlueJpeg(page);
    const jpeg = withExifOrientation(Buffer.from(stored, 'base64'), 6);
    const imageUrl = `${new URL(h.images.url(1, 1)).origin}/images/photo-exif-6.jpg`;
    await page.route(imageUrl, (route) =>
      route.fulfill({ status: 200, contentType: 'image/jpeg', headers: { 'access-control-allow-origin': '*' }, body: jpeg }),
    );
    const project = await aProjectWithTasks(h, { tasks: 0 });
    const added = await h.api.request({
      method: 'POST',
      url: '/api/v1/projects/add_task',
      headers: { apikey: project.liveKey },
      body: { task: { project_uuid: project.projectUuid, external_image_url: imageUrl, substitutions: {} } },
    });
    expect(added.status).toBe(201);

    const task = await new TaskPage(page).goto(project.projectUuid);
    const g = await task.annotator.geometry();
    expect(g.image).toEqual({ width: 120, height: 240 });
    // The canvas draws it turned as well: red at the top of the image, blue at the bottom.
    expect([await colourAt(page, g, 0.5, 0.25), await colourAt(page, g, 0.5, 0.75)]).toEqual(['red', 'blue']);

    // A box on the lower half lies below y = 120, outside the stored frame, and the server takes it.
    const rect = await task.annotator.drawBox(0.2, 0.6, 0.8, 0.9);
    const submitted = page.waitForRequest((req) => req.url().endsWith('/submit'));
    await task.submit();
    const body = (await submitted).postDataJSON() as { image_width: number; image_height: number; annotations: ImageBox[] };
    expect([body.image_width, body.image_height]).toEqual([120, 240]);
    expect(body.annotations).toHaveLength(1);
    expect(boxMatches(body.annotations[0], rect)).toBe(true);
    expect(body.annotations[0].center_y).toBeGreaterThan(120);
    await task.noTask.waitFor();
    expect(await task.notice.innerText()).toContain('Submitted 1 box.');
  });

  it('takes a JPEG whose EXIF resolution makes the browser show it smaller in the pixels of its file, still turned by its orientation', async () => {
    const h = harness();
    const worker = await aWorker(h);
    const page = await h.newPage({ as: worker });

    // Stored 240x120 at 144 dpi, with PixelX/YDimension 120x60: Chromium's <img> reports 120x60, half
    // the pixels a requester reads the boxes against. Left half red, right half blue.
    const stored = await redBlueJpeg(page);
    const origin = new URL(h.images.url(1, 1)).origin;
    const photos = {
      upright: { url: `${origin}/images/photo-144dpi.jpg`, orientation: undefined, frame: { width: 240, height: 120 } },
      turned: { url: `${origin}/images/photo-144dpi-exif-6.jpg`, orientation: 6, frame: { width: 120, height: 240 } },
    };
    for (const photo of Object.values(photos)) {
      const jpeg = withExifResolution(Buffer.from(stored, 'base64'), { orientation: photo.orientation, dpi: 144, pixelWidth: 120, pixelHeight: 60 });
      await page.route(photo.url, (route) =>
        route.fulfill({ status: 200, contentType: 'image/jpeg', headers: { 'access-control-allow-origin': '*' }, body: jpeg }),
      );
    }
    // The case this is about: the element's natural size is the density-corrected one.
    const natural = await page.evaluate(async (url) => {
      const img = new Image();
      img.crossOrigin = 'anonymous';
      img.src = url;
      await img.decode();
      return { width: img.naturalWidth, height: img.naturalHeight };
    }, photos.upright.url);
    expect(natural).toEqual({ width: 120, height: 60 });

    for (const photo of Object.values(photos)) {
      const project = await aProjectWithTasks(h, { tasks: 0 });
      const added = await h.api.request({
        method: 'POST',
        url: '/api/v1/projects/add_task',
        headers: { apikey: project.liveKey },
        body: { task: { project_uuid: project.projectUuid, external_image_url: photo.url, substitutions: {} } },
      });
      expect(added.status).toBe(201);

      const task = await new TaskPage(page).goto(project.projectUuid);
      const g = await task.annotator.geometry();
      expect(g.image).toEqual(photo.frame);
      // The picture fills the frame: red on the left (or top), blue on the right (or bottom).
      const [first, second] = photo.orientation ? [[0.5, 0.25], [0.5, 0.75]] : [[0.25, 0.5], [0.75, 0.5]];
      expect([await colourAt(page, g, first[0], first[1]), await colourAt(page, g, second[0], second[1])]).toEqual(['red', 'blue']);
      // A box over the blue half: the right half of the file's pixels, the lower half once turned.
      const rect = photo.orientation ? await task.annotator.drawBox(0.2, 0.6, 0.8, 0.9) : await task.annotator.drawBox(0.6, 0.2, 0.9, 0.8);
      const submitted = page.waitForRequest((req) => req.url().endsWith('/submit'));
      await task.submit();
      const body = (await submitted).postDataJSON() as { image_width: number; image_height: number; annotations: ImageBox[] };
      expect({ width: body.image_width, height: body.image_height }).toEqual(photo.frame);
      expect(boxMatches(body.annotations[0], rect)).toBe(true);
      expect(photo.orientation ? body.annotations[0].center_y : body.annotations[0].center_x).toBeGreaterThan(120);
      await task.noTask.waitFor();
    }
  });

  it('lets a keyboard-only worker make a box (N), shape and label it by key, hear what is selected, and submit it', async () => {
    const h = harness();
    const { project, page, task } = await aWorkerOnATask(h, { tasks: 1, image: { width: 960, height: 640 } });
    const { annotator } = task;
    const status = page.getByTestId('annotator-selection-status');

    await annotator.stage.focus();
    await annotator.press('n');
    // A quarter of the smaller side of the image in view (all of it, fitted), in its middle, selected.
    await annotator.expectBoxes(1);
    expect(await annotator.boxes()).toEqual([{ label: 'car', center_x: 480, center_y: 320, width: 160, height: 160 }]);
    expect(await annotator.boxItems.first().getAttribute('data-selected')).toBe('true');
    expect(await status.textContent()).toBe('Box 1 of 1, car, 160×160 at 400,240');

    await annotator.press('Alt+Shift+ArrowRight');
    await annotator.press('Alt+Shift+ArrowRight');
    await annotator.press('Shift+ArrowDown');
    await annotator.press('2');
    await expectEventually(async () => (await status.textContent()) === 'Box 1 of 1, person, 180×160 at 390,250', 'the status to say the shaped box', async () =>
      (await status.textContent()) ?? '',
    );

    // Escape deselects, Escape again leaves the canvas; then Submit from the keyboard.
    await annotator.press('Escape');
    await annotator.press('Escape');
    await task.submitButton.focus();
    await page.keyboard.press('Enter');
    await task.noTask.waitFor();
    const res = await h.api.request({ method: 'GET', url: `/api/v1/tasks/${project.taskUuids[0]}/annotations?view=submissions`, headers: { apikey: project.liveKey } });
    expect(res.body.data.submissions[0].annotations).toEqual([{ label: 'person', center_x: 480, center_y: 330, width: 180, height: 160 }]);
  });
});
