import { expectEventually } from '../../support/expect-eventually';
import { useHarness } from '../../support/harness';
import { boxRect } from '../../support/pages/annotator.page';
import type { AnnotatorPage } from '../../support/pages/annotator.page';
import { aWorkerOnATask } from '../../support/scenario';

const harness = useHarness();

/**
 * A worker on a task with one box drawn over the image-relative rect (x0, y0)–(x1, y1), selected, and held
 * by its centre with the mouse button down: the start of every drag here. The centre's page point comes
 * from the page object's one transform (toPage), on a whole CSS pixel, where a mouse event really lands.
 */
async function holdABox(x0: number, y0: number, x1: number, y1: number) {
  const { task, page } = await aWorkerOnATask(harness(), { tasks: 1, image: { width: 960, height: 640 } });
  const { annotator } = task;
  await annotator.drawBox(x0, y0, x1, y1);
  await annotator.selectBox(0);
  const [drawn] = await annotator.boxes();
  const { image } = await annotator.geometry();
  const grab = await annotator.toPage(drawn.center_x / image.width, drawn.center_y / image.height);
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  return { annotator, page, drawn, grab };
}

/** One wheel notch at the pointer's place, with the mouse button still down; waits until the zoom changed. */
async function wheelMidDrag(annotator: AnnotatorPage, deltaY: number): Promise<void> {
  const before = (await annotator.geometry()).scale;
  await annotator.page.mouse.wheel(0, deltaY);
  await expectEventually(async () => (await annotator.geometry()).scale !== before, 'the wheel to change the zoom mid-drag');
}

/** A box grabbed by its centre and dropped: the grabbed image point is under the pointer where it was let go. */
async function dropsUnderThePointer(annotator: AnnotatorPage, release: { x: number; y: number }, size: { width: number; height: number }): Promise<void> {
  const target = await annotator.pageToImage(release);
  const describe = async () => JSON.stringify({ stored: (await annotator.boxes())[0], expectedCentre: target });
  await expectEventually(
    async () => {
      const [b] = await annotator.boxes();
      return Math.abs(b.center_x - target.x) <= 1.5 && Math.abs(b.center_y - target.y) <= 1.5 && b.width === size.width && b.height === size.height;
    },
    'the box to land with its grabbed centre under the pointer',
    describe,
  );
}

describe('dragging a box while the zoom changes', () => {
  it('drops the box where the pointer holds it after a wheel zoom in the middle of the drag, then more movement', async () => {
    const { annotator, page, drawn, grab } = await holdABox(0.3, 0.3, 0.45, 0.5);
    await page.mouse.move(grab.x + 40, grab.y + 20, { steps: 5 });
    // Two notches in, at the pointer, with the button held; then on by 30, 30 page pixels.
    await wheelMidDrag(annotator, -200);
    await wheelMidDrag(annotator, -200);
    const release = { x: grab.x + 70, y: grab.y + 50 };
    await page.mouse.move(release.x, release.y, { steps: 5 });
    await page.mouse.up();

    await dropsUnderThePointer(annotator, release, drawn);
  });

  it('drops the box where the pointer holds it when the button is let go right after a wheel zoom', async () => {
    const { annotator, page, drawn, grab } = await holdABox(0.3, 0.3, 0.45, 0.5);
    const release = { x: grab.x + 60, y: grab.y + 40 };
    await page.mouse.move(release.x, release.y, { steps: 6 });
    // Zoomed out at the pointer, then let go without moving.
    await wheelMidDrag(annotator, 200);
    await page.mouse.up();

    await dropsUnderThePointer(annotator, release, drawn);
  });

  it('keeps the box under the pointer through a zoom key around the centre pressed with the button held', async () => {
    const { annotator, page, drawn, grab } = await holdABox(0.2, 0.25, 0.35, 0.45);
    const release = { x: grab.x + 50, y: grab.y + 30 };
    await page.mouse.move(release.x, release.y, { steps: 6 });
    // "=" zooms in around the centre of the stage, not at the pointer: the image point under it changes.
    const before = (await annotator.geometry()).scale;
    await annotator.press('Equal');
    await expectEventually(async () => (await annotator.geometry()).scale !== before, 'the key to change the zoom mid-drag');
    await page.mouse.up();

    await dropsUnderThePointer(annotator, release, drawn);
  });

  it('resizes by the top-left handle through a wheel zoom', async () => {
    const { task, page } = await aWorkerOnATask(harness(), { tasks: 1, image: { width: 960, height: 640 } });
    const { annotator } = task;
    await annotator.drawBox(0.4, 0.4, 0.6, 0.6);
    await annotator.selectBox(0);
    const [drawn] = await annotator.boxes();
    const { image } = await annotator.geometry();
    const before = boxRect(drawn);
    // The handle sits on the corner: pressed there, pulled 50 page pixels left with the button held.
    const corner = await annotator.toPage(before.x0 / image.width, before.y0 / image.height);
    await page.mouse.move(corner.x, corner.y);
    await page.mouse.down();
    await page.mouse.move(corner.x - 50, corner.y, { steps: 5 });
    // A notch in at the pointer (the image point under it stays), then 20 pixels up, and let go.
    await wheelMidDrag(annotator, -200);
    const release = { x: corner.x - 50, y: corner.y - 20 };
    await page.mouse.move(release.x, release.y, { steps: 4 });
    await page.mouse.up();

    // The right and bottom edges stay put; the top-left corner is where the pointer let go.
    const pointer = await annotator.pageToImage(release);
    const describe = async () => JSON.stringify({ stored: boxRect((await annotator.boxes())[0]), before, pointer });
    await expectEventually(
      async () => {
        const after = boxRect((await annotator.boxes())[0]);
        return (
          Math.abs(after.x1 - before.x1) <= 1 && Math.abs(after.y1 - before.y1) <= 1 && Math.abs(after.x0 - pointer.x) <= 1.5 && Math.abs(after.y0 - pointer.y) <= 1.5
        );
      },
      'the resized box to keep its right and bottom edges, its top-left corner under the pointer',
      describe,
    );
  });
});

/** The dashed outline of the box being drawn, in page pixels, read from the Konva stage (null when hidden). */
async function drawingOutline(annotator: AnnotatorPage): Promise<{ x0: number; y0: number; x1: number; y1: number } | null> {
  const { left, top } = await annotator.geometry();
  const r = await annotator.page.evaluate(() => {
    type Node = { visible(): boolean; dash(): number[] | undefined; x(): number; y(): number; width(): number; height(): number };
    const konva = (window as unknown as { Konva: { stages: Array<{ find(selector: string): Node[] }> } }).Konva;
    const outline = konva.stages[0]?.find('Rect').find((node) => (node.dash()?.length ?? 0) > 0 && node.visible());
    return outline ? { x: outline.x(), y: outline.y(), width: outline.width(), height: outline.height() } : null;
  });
  return r && { x0: left + r.x, y0: top + r.y, x1: left + r.x + r.width, y1: top + r.y + r.height };
}

describe('drawing a box while the zoom changes', () => {
  it('redraws the outline of the box being drawn after a wheel zoom with no pointer move', async () => {
    const { task, page } = await aWorkerOnATask(harness(), { tasks: 1, image: { width: 960, height: 640 } });
    const { annotator } = task;
    const from = await annotator.toPage(0.3, 0.3);
    const anchor = await annotator.pageToImage(from);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    const to = { x: from.x + 120, y: from.y + 80 };
    await page.mouse.move(to.x, to.y, { steps: 5 });
    // A notch in at the pointer: the corner under it stays, the anchor moves away on the screen.
    await wheelMidDrag(annotator, -200);

    const g = await annotator.geometry();
    const expected = { x0: g.left + g.offsetX + anchor.x * g.scale, y0: g.top + g.offsetY + anchor.y * g.scale, x1: to.x, y1: to.y };
    await expectEventually(
      async () => {
        const seen = await drawingOutline(annotator);
        return !!seen && (['x0', 'y0', 'x1', 'y1'] as const).every((k) => Math.abs(seen[k] - expected[k]) <= 1);
      },
      'the outline to span from the anchor to the pointer at the new zoom',
      async () => JSON.stringify({ seen: await drawingOutline(annotator), expected }),
    );
    await page.mouse.up();
    await annotator.expectBoxes(1);
  });
});
