import { expectEventually } from '../../support/expect-eventually';
import { useHarness } from '../../support/harness';
import type { ImageBox } from '../../support/pages/annotator.page';
import { aWorkerOnATask } from '../../support/scenario';

const harness = useHarness();

/**
 * A worker with two boxes, the first selected and held by its centre with the mouse button down, moved
 * 40 page pixels right: an edit key pressed now must change nothing, and the release moves the held box only.
 */
async function holdTheFirstOfTwo() {
  const { task, page } = await aWorkerOnATask(harness(), { tasks: 1, image: { width: 960, height: 640 } });
  const { annotator } = task;
  await annotator.drawBox(0.1, 0.1, 0.25, 0.3);
  await annotator.drawBox(0.6, 0.5, 0.8, 0.8);
  await annotator.selectBox(0);
  const [first, second] = await annotator.boxes();
  const { image } = await annotator.geometry();
  const grab = await annotator.toPage(first.center_x / image.width, first.center_y / image.height);
  await page.mouse.move(grab.x, grab.y);
  await page.mouse.down();
  await page.mouse.move(grab.x + 40, grab.y, { steps: 5 });
  return { annotator, page, first, second };
}

const moved = (b: ImageBox, from: ImageBox) => b.center_x > from.center_x + 10 && b.center_y === from.center_y && b.width === from.width && b.height === from.height;

describe('edit keys while a box is held by the pointer', () => {
  it('deletes nothing on Delete during a drag, and the release moves the held box only', async () => {
    const { annotator, page, first, second } = await holdTheFirstOfTwo();
    await annotator.press('Delete');
    await page.mouse.up();
    const describe = async () => JSON.stringify({ boxes: await annotator.boxes(), first, second });
    await expectEventually(
      async () => {
        const boxes = await annotator.boxes();
        return boxes.length === 2 && moved(boxes[0], first) && JSON.stringify(boxes[1]) === JSON.stringify(second);
      },
      'two boxes: the held one moved, the other where it was',
      describe,
    );
  });

  it('undoes nothing on Ctrl+Z during a drag: both boxes stay, and the release moves the held one', async () => {
    const { annotator, page, first, second } = await holdTheFirstOfTwo();
    await annotator.press('Control+z');
    await page.mouse.up();
    await expectEventually(async () => {
      const boxes = await annotator.boxes();
      return boxes.length === 2 && moved(boxes[0], first) && JSON.stringify(boxes[1]) === JSON.stringify(second);
    }, 'both boxes kept, the held one moved', async () => JSON.stringify(await annotator.boxes()));
  });
});
