import { expectEventually } from '../../support/expect-eventually';
import { useHarness } from '../../support/harness';
import { aWorkerOnATask } from '../../support/scenario';

const harness = useHarness();

describe('boxes that overlap', () => {
  it('selects and drags a small box drawn first, under a larger box drawn around it later', async () => {
    const { task } = await aWorkerOnATask(harness(), { tasks: 1, image: { width: 960, height: 640 } });
    const { annotator } = task;
    // A face, then a person around it: the person, drawn last, is selected.
    await annotator.drawBox(0.45, 0.3, 0.55, 0.45);
    await annotator.drawBox(0.3, 0.2, 0.7, 0.9);
    const [face, person] = await annotator.boxes();
    expect(await annotator.stage.getAttribute('data-selected')).toBe('1');

    const { image } = await annotator.geometry();
    const centre = { x: face.center_x / image.width, y: face.center_y / image.height };
    await annotator.clickAt(centre.x, centre.y);
    await expectEventually(async () => (await annotator.stage.getAttribute('data-selected')) === '0', 'a click inside the face to select the face');

    // Selected, it is the face that a drag from its centre moves; the person stays.
    const from = await annotator.toPage(centre.x, centre.y);
    await annotator.dragPage(from, { x: from.x + 30, y: from.y + 20 });
    await expectEventually(
      async () => {
        const [f, p] = await annotator.boxes();
        return f.center_x > face.center_x + 10 && f.width === face.width && JSON.stringify(p) === JSON.stringify(person);
      },
      'the face moved and the person where it was',
      async () => JSON.stringify({ boxes: await annotator.boxes(), face, person }),
    );
  });
});
