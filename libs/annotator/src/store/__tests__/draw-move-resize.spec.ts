import { imageToScreen, screenRectToImage } from '@crowdbox/boxes';
import type { Point, Rect, Viewport } from '@crowdbox/boxes';
import { boxToScreen, dragDelta, screenNodeToImage } from '../../canvas/stage-geometry.util';
import { actions } from '../editor.actions';
import { editorReducer } from '../editor.reducer';
import { box, editor, ZOOM_1, ZOOM_2_7 } from './editor.fixtures';

/** The screen points a user would drag between to draw the image rect, at this viewport. */
function screenDrag(image: Rect, viewport: Viewport): [Point, Point] {
  return [imageToScreen({ x: image.x0, y: image.y0 }, viewport), imageToScreen({ x: image.x1, y: image.y1 }, viewport)];
}

/** What the canvas dispatches for a drag from `a` to `b` on the screen. */
function drawFromScreen(a: Point, b: Point, viewport: Viewport) {
  return actions.drawBox(screenRectToImage({ x0: a.x, y0: a.y, x1: b.x, y1: b.y }, viewport));
}

describe.each([
  ['zoom 1', ZOOM_1],
  ['zoom 2.7 with a pan', ZOOM_2_7],
])('at %s', (_name, viewport) => {
  it('draws the image box a screen drag covers, with the current label, and selects it', () => {
    const [a, b] = screenDrag({ x0: 100, y0: 50, x1: 200, y1: 130 }, viewport);
    const state = editorReducer(editor({ viewport, currentLabel: 'dog' }), drawFromScreen(a, b, viewport));
    expect(state.boxes).toEqual([box('dog', 150, 90, 100, 80)]);
    expect(state.selected).toBe(0);
  });

  it('rounds a drag between fractional screen points to integer image pixels', () => {
    const a = imageToScreen({ x: 100.3, y: 50.2 }, viewport);
    const b = imageToScreen({ x: 200.6, y: 130.9 }, viewport);
    const state = editorReducer(editor({ viewport }), drawFromScreen(a, b, viewport));
    // x 100.3..200.6: centre 150.45 -> 150, width 100.3 -> 100; y 50.2..130.9: 90.55 -> 91, 80.7 -> 81
    expect(state.boxes).toEqual([box('cat', 150, 91, 100, 81)]);
  });

  it('draws the same box when dragging up and to the left', () => {
    const [a, b] = screenDrag({ x0: 100, y0: 50, x1: 200, y1: 130 }, viewport);
    expect(editorReducer(editor({ viewport }), drawFromScreen(b, a, viewport)).boxes).toEqual([box('cat', 150, 90, 100, 80)]);
  });

  it('clamps a drag that leaves the image to the image', () => {
    const [a, b] = screenDrag({ x0: 700, y0: 500, x1: 900, y1: 700 }, viewport);
    expect(editorReducer(editor({ viewport }), drawFromScreen(a, b, viewport)).boxes).toEqual([box('cat', 750, 550, 100, 100)]);
  });

  it('moves a box by a screen drag, in image pixels', () => {
    const start = editor({ viewport, boxes: [box('cat', 150, 90, 100, 80)], selected: 0 });
    const node = boxToScreen(start.boxes[0], viewport);
    // The user drags the node 27 screen px right and 54 down: 10 and 20 image px at zoom 2.7.
    const delta = dragDelta(start.boxes[0], { x: node.x + 10 * viewport.scale, y: node.y + 20 * viewport.scale }, viewport);
    const state = editorReducer(start, actions.moveBox(0, delta.x, delta.y));
    expect(state.boxes).toEqual([box('cat', 160, 110, 100, 80)]);
  });

  it('keeps a moved box inside the image with its size', () => {
    const start = editor({ viewport, boxes: [box('cat', 150, 90, 100, 80)] });
    expect(editorReducer(start, actions.moveBox(0, -1000, 1000)).boxes).toEqual([box('cat', 50, 560, 100, 80)]);
  });

  it('resizes a box to the rect of the resized node, clamped to the image', () => {
    const start = editor({ viewport, boxes: [box('cat', 150, 90, 100, 80)], selected: 0 });
    const node = boxToScreen(start.boxes[0], viewport);
    // Drag the bottom-right handle 20 image px right and 10 up.
    const resized = { ...node, width: node.width + 20 * viewport.scale, height: node.height - 10 * viewport.scale };
    expect(editorReducer(start, actions.resizeBox(0, screenNodeToImage(resized, viewport))).boxes).toEqual([box('cat', 160, 85, 120, 70)]);
    // Dragged past the left image edge: the box is cut at x = 0.
    const pastLeft = { ...node, x: node.x - 200 * viewport.scale, width: node.width + 200 * viewport.scale };
    expect(editorReducer(start, actions.resizeBox(0, screenNodeToImage(pastLeft, viewport))).boxes).toEqual([box('cat', 100, 90, 200, 80)]);
  });
});

describe('drawing edge cases', () => {
  it('gives a thin drag the minimum size', () => {
    const state = editorReducer(editor(), actions.drawBox({ x0: 10, y0: 10, x1: 60, y1: 11 }));
    expect(state.boxes).toEqual([box('cat', 35, 11, 50, 4)]);
  });

  it('ignores a drag wholly outside the image, a read-only editor, and an image not yet loaded', () => {
    const outside = { x0: -50, y0: 10, x1: -10, y1: 50 };
    const inside = { x0: 10, y0: 10, x1: 50, y1: 50 };
    const s1 = editor();
    expect(editorReducer(s1, actions.drawBox(outside))).toBe(s1);
    const s2 = editor({ readOnly: true });
    expect(editorReducer(s2, actions.drawBox(inside))).toBe(s2);
    const s3 = editor({ image: null });
    expect(editorReducer(s3, actions.drawBox(inside))).toBe(s3);
  });

  it('enforces the minimum size on a handle resize too', () => {
    const start = editor({ boxes: [box('cat', 150, 90, 100, 80)] });
    expect(editorReducer(start, actions.resizeBox(0, { x0: 100, y0: 50, x1: 101, y1: 130 })).boxes).toEqual([box('cat', 101, 90, 4, 80)]);
  });

  it('ignores moves and resizes of a box that does not exist', () => {
    const start = editor({ boxes: [box('cat', 150, 90, 100, 80)] });
    expect(editorReducer(start, actions.moveBox(3, 1, 1))).toBe(start);
    expect(editorReducer(start, actions.resizeBox(-1, { x0: 0, y0: 0, x1: 10, y1: 10 }))).toBe(start);
  });
});
