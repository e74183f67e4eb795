import { expectEventually } from '../../support/expect-eventually';
import { useHarness } from '../../support/harness';
import { boxRect } from '../../support/pages/annotator.page';
import { LoginPage } from '../../support/pages/login.page';
import { TaskPage } from '../../support/pages/task.page';
import { WorkProjectsPage } from '../../support/pages/work-projects.page';
import { aProjectWithTasks, aWorker, PASSWORD } from '../../support/scenario';
import { Fingers } from '../../support/touch';

const harness = useHarness();

/** A worker on a touch screen, on a task of a 960x640 image. */
async function onATouchScreen() {
  const h = harness();
  const project = await aProjectWithTasks(h, { tasks: 1, image: { width: 960, height: 640 } });
  const worker = await aWorker(h, 'Tia Tablet');
  const page = await h.newPage({ hasTouch: true });
  await new LoginPage(page).logInVia('/work', worker.email, PASSWORD);
  await new WorkProjectsPage(page).start(project.displayName);
  const task = new TaskPage(page);
  await task.waitForTask();
  return { page, annotator: task.annotator, fingers: await Fingers.on(page) };
}

describe('annotating on a touch screen', () => {
  it('zooms with two fingers apart about the point between them, pans with two fingers together, and draws nothing', async () => {
    const { annotator, fingers } = await onATouchScreen();
    const before = await annotator.geometry();
    const centre = await annotator.toPage(0.5, 0.5);
    const under = await annotator.pageToImage(centre);

    // Apart: from 80 px between them to 160.
    await fingers.gesture(
      [{ x: centre.x - 40, y: centre.y }, { x: centre.x + 40, y: centre.y }],
      [{ x: centre.x - 80, y: centre.y }, { x: centre.x + 80, y: centre.y }],
    );
    await expectEventually(
      async () => Math.abs((await annotator.geometry()).scale / before.scale - 2) < 0.02,
      'the zoom to double',
      async () => `${(await annotator.geometry()).scale / before.scale}x`,
    );
    // The image point between the fingers is still between them.
    const still = await annotator.pageToImage(centre);
    expect(Math.abs(still.x - under.x)).toBeLessThan(1);
    expect(Math.abs(still.y - under.y)).toBeLessThan(1);

    // Together: the image follows them, at the same zoom.
    const zoomed = await annotator.geometry();
    await fingers.gesture(
      [{ x: centre.x - 40, y: centre.y }, { x: centre.x + 40, y: centre.y }],
      [{ x: centre.x + 60, y: centre.y + 40 }, { x: centre.x + 140, y: centre.y + 40 }],
    );
    await expectEventually(
      async () => {
        const g = await annotator.geometry();
        return Math.abs(g.offsetX - zoomed.offsetX - 100) < 1 && Math.abs(g.offsetY - zoomed.offsetY - 40) < 1;
      },
      'the image to move by (100, 40)',
      async () => JSON.stringify(await annotator.geometry()),
    );
    expect((await annotator.geometry()).scale).toBeCloseTo(zoomed.scale, 6);
    await annotator.expectBoxes(0);
  });

  it('draws a box with one finger', async () => {
    const { annotator, fingers } = await onATouchScreen();
    const from = await annotator.toPage(0.2, 0.2);
    const to = await annotator.toPage(0.4, 0.5);
    await fingers.gesture([from], [to]);
    await annotator.expectBoxes(1);
  });

  it('resizes from a finger pressed beside the corner, where an 8 px square is missed', async () => {
    const { page, annotator, fingers } = await onATouchScreen();
    await annotator.drawBox(0.2, 0.2, 0.4, 0.4);
    const [box] = await annotator.boxes();
    const g = await annotator.geometry();
    const rect = boxRect(box);
    const corner = { x: g.left + g.offsetX + rect.x1 * g.scale, y: g.top + g.offsetY + rect.y1 * g.scale };
    // 10 px right of and below the corner: outside the drawn square (4 px each side), inside the touch area.
    const press = { x: Math.round(corner.x + 10), y: Math.round(corner.y + 10) };
    await fingers.gesture([press], [{ x: press.x + 60, y: press.y + 40 }]);

    await expectEventually(
      async () => {
        const boxes = await annotator.boxes();
        return boxes.length === 1 && boxRect(boxes[0]).x1 > rect.x1 + 40;
      },
      'the one box to grow',
      async () => JSON.stringify(await annotator.boxes()),
    );
    const grown = boxRect((await annotator.boxes())[0]);
    // The top-left corner stays (within the whole pixel a stored box is rounded to).
    expect(Math.abs(grown.x0 - rect.x0)).toBeLessThanOrEqual(1);
    expect(Math.abs(grown.y0 - rect.y0)).toBeLessThanOrEqual(1);
    expect((grown.x1 - rect.x1) * g.scale).toBeCloseTo(60, -1);
    expect((grown.y1 - rect.y1) * g.scale).toBeCloseTo(40, -1);
    expect(await page.evaluate(() => matchMedia('(any-pointer: coarse)').matches)).toBe(true);
  });

  it('leaves a box where it is when a second finger joins the one moving it', async () => {
    const { annotator, fingers } = await onATouchScreen();
    await annotator.drawBox(0.2, 0.2, 0.4, 0.4);
    const [box] = await annotator.boxes();
    const g = await annotator.geometry();
    const on = await annotator.toPage(0.3, 0.3);
    // One finger moves the selected box 30 px right.
    await fingers.send('touchStart', [{ ...on, id: 0 }]);
    for (let dx = 5; dx <= 30; dx += 5) await fingers.send('touchMove', [{ x: on.x + dx, y: on.y, id: 0 }]);
    // A second finger joins; both move on (a pinch), then lift.
    const second = { x: on.x + 200, y: on.y + 100 };
    await fingers.send('touchStart', [{ x: on.x + 30, y: on.y, id: 0 }, { ...second, id: 1 }]);
    for (let d = 10; d <= 60; d += 10) {
      await fingers.send('touchMove', [{ x: on.x + 30 + d, y: on.y, id: 0 }, { x: second.x + d, y: second.y, id: 1 }]);
    }
    await fingers.send('touchEnd', []);

    const [moved] = await annotator.boxes();
    // Moved by the first finger's 30 px alone, in image pixels at the zoom of the time.
    expect(Math.abs(moved.center_x - (box.center_x + 30 / g.scale))).toBeLessThanOrEqual(1);
    expect(moved.center_y).toBe(box.center_y);
    await annotator.expectBoxes(1);
  });

  it('leaves a box as it is when a second finger joins the one resizing it', async () => {
    const { annotator, fingers } = await onATouchScreen();
    await annotator.drawBox(0.2, 0.2, 0.4, 0.4);
    const [box] = await annotator.boxes();
    const g = await annotator.geometry();
    const rect = boxRect(box);
    const corner = { x: Math.round(g.left + g.offsetX + rect.x1 * g.scale), y: Math.round(g.top + g.offsetY + rect.y1 * g.scale) };
    // One finger drags the bottom-right corner 30 px right.
    await fingers.send('touchStart', [{ ...corner, id: 0 }]);
    for (let dx = 5; dx <= 30; dx += 5) await fingers.send('touchMove', [{ x: corner.x + dx, y: corner.y, id: 0 }]);
    // A second finger joins; both move on, then lift.
    const second = { x: corner.x - 200, y: corner.y - 100 };
    await fingers.send('touchStart', [{ x: corner.x + 30, y: corner.y, id: 0 }, { ...second, id: 1 }]);
    for (let d = 10; d <= 60; d += 10) {
      await fingers.send('touchMove', [{ x: corner.x + 30 + d, y: corner.y + d, id: 0 }, { x: second.x - d, y: second.y, id: 1 }]);
    }
    await fingers.send('touchEnd', []);

    const grown = boxRect((await annotator.boxes())[0]);
    // Wider by the first finger's 30 px alone, no taller; the top-left corner stays.
    expect(Math.abs(grown.x1 - (rect.x1 + 30 / g.scale))).toBeLessThanOrEqual(1);
    expect(Math.abs(grown.y1 - rect.y1)).toBeLessThanOrEqual(1);
    expect(Math.abs(grown.x0 - rect.x0)).toBeLessThanOrEqual(1);
    await annotator.expectBoxes(1);
  });

  it('leaves a box where it is when a finger rested on it, unmoved, as a second finger began a pinch', async () => {
    const { annotator, fingers } = await onATouchScreen();
    await annotator.drawBox(0.2, 0.2, 0.4, 0.4);
    const [box] = await annotator.boxes();
    const on = await annotator.toPage(0.3, 0.3);
    // The first finger on the selected box moves 1 px: under Konva's 3 px, its drag has not started.
    await fingers.send('touchStart', [{ ...on, id: 0 }]);
    await fingers.send('touchMove', [{ x: on.x + 1, y: on.y, id: 0 }]);
    const second = { x: on.x + 200, y: on.y + 100 };
    await fingers.send('touchStart', [{ x: on.x + 1, y: on.y, id: 0 }, { ...second, id: 1 }]);
    for (let d = 10; d <= 60; d += 10) {
      await fingers.send('touchMove', [{ x: on.x + 1 + d, y: on.y + d, id: 0 }, { x: second.x + 2 * d, y: second.y + d, id: 1 }]);
    }
    await fingers.send('touchEnd', []);

    expect(await annotator.boxes()).toEqual([box]);
  });

  it('leaves the selected box where it is when the second finger of a pinch comes down on it', async () => {
    const { annotator, fingers } = await onATouchScreen();
    await annotator.drawBox(0.2, 0.2, 0.4, 0.4);
    const [box] = await annotator.boxes();
    const first = await annotator.toPage(0.7, 0.7);
    const on = await annotator.toPage(0.3, 0.3);
    await fingers.send('touchStart', [{ ...first, id: 0 }]);
    await fingers.send('touchStart', [{ ...first, id: 0 }, { ...on, id: 1 }]);
    for (let d = 10; d <= 60; d += 10) {
      await fingers.send('touchMove', [{ x: first.x + d, y: first.y + d, id: 0 }, { x: on.x - d, y: on.y, id: 1 }]);
    }
    await fingers.send('touchEnd', []);

    expect(await annotator.boxes()).toEqual([box]);
  });
});
