import { ZOOM_2_7 } from '../../store/__tests__/editor.fixtures';
import {
  boundResize,
  boxToScreen,
  clampDragPosition,
  clientToStage,
  dragDelta,
  imageToScreenRect,
  isClick,
  pinchStep,
  screenNodeToImage,
  tagPosition,
  wheelZoomFactor,
} from '../stage-geometry.util';

const IMAGE = { width: 800, height: 600 };
const cat = { label: 'cat', center_x: 150, center_y: 90, width: 100, height: 80 };

describe('stage geometry at zoom 2.7 with a pan', () => {
  it('places a box on the screen through the one transform and reads it back', () => {
    const node = boxToScreen(cat, ZOOM_2_7);
    expect(node.x).toBeCloseTo(100 * 2.7 - 135.5);
    expect(node.y).toBeCloseTo(50 * 2.7 - 54.25);
    expect(node.width).toBeCloseTo(270);
    expect(node.height).toBeCloseTo(216);
    const back = screenNodeToImage(node, ZOOM_2_7);
    expect(back.x0).toBeCloseTo(100);
    expect(back.y1).toBeCloseTo(130);
  });

  it('turns a node drag into an image-pixel move', () => {
    const node = boxToScreen(cat, ZOOM_2_7);
    const delta = dragDelta(cat, { x: node.x + 27, y: node.y - 5.4 }, ZOOM_2_7);
    expect(delta.x).toBeCloseTo(10);
    expect(delta.y).toBeCloseTo(-2);
  });

  it('keeps a dragged node inside the image', () => {
    const size = { width: 270, height: 216 };
    const origin = imageToScreenRect(IMAGE, ZOOM_2_7);
    expect(clampDragPosition({ x: -9999, y: -9999 }, size, IMAGE, ZOOM_2_7)).toEqual({ x: origin.x, y: origin.y });
    const far = clampDragPosition({ x: 9999, y: 9999 }, size, IMAGE, ZOOM_2_7);
    expect(far.x + size.width).toBeCloseTo(origin.x + origin.width);
    expect(far.y + size.height).toBeCloseTo(origin.y + origin.height);
  });

  it('bounds a handle resize to the image and the minimum size', () => {
    const image = imageToScreenRect(IMAGE, ZOOM_2_7);
    const old = { x: 10, y: 10, width: 100, height: 100, rotation: 0 };
    // Dragged 50 px past the image's left edge: the left edge stops at the image, the right one stays.
    const pastLeft = { ...old, x: image.x - 50, width: 200 };
    expect(boundResize(old, pastLeft, image, 10.8)).toEqual({ ...old, x: image.x, width: 150 });
    expect(boundResize(old, { ...old, width: 5 }, image, 10.8)).toBe(old);
    // Either side below the minimum keeps the old box: a flat box as much as a narrow one.
    expect(boundResize(old, { ...old, height: 5 }, image, 10.8)).toBe(old);
    // Exactly the minimum is allowed.
    expect(boundResize(old, { ...old, width: 10.8, height: 10.8 }, image, 10.8)).toEqual({ ...old, width: 10.8, height: 10.8 });
  });
});

describe('pointer helpers', () => {
  it('measures pointer positions from the stage corner', () => {
    expect(clientToStage({ clientX: 110, clientY: 60 }, { left: 100, top: 50 })).toEqual({ x: 10, y: 10 });
  });

  it('tells a click from a drag', () => {
    expect(isClick({ x: 0, y: 0 }, { x: 2, y: -2 })).toBe(true);
    expect(isClick({ x: 0, y: 0 }, { x: 3, y: 0 })).toBe(false);
    expect(isClick({ x: 0, y: 0 }, { x: 0, y: 3 })).toBe(false);
  });

  it('zooms in on wheel up and out on wheel down, by the same factor both ways', () => {
    expect(wheelZoomFactor(-100)).toBeGreaterThan(1);
    expect(wheelZoomFactor(100)).toBeLessThan(1);
    expect(wheelZoomFactor(-100) * wheelZoomFactor(100)).toBeCloseTo(1);
    expect(wheelZoomFactor(3, 1)).toBeCloseTo(wheelZoomFactor(48));
    expect(wheelZoomFactor(100000)).toBe(wheelZoomFactor(200));
  });

  it('turns two fingers moving into a zoom about their old midpoint and a pan to the new one', () => {
    // Apart, about a fixed midpoint: zoom only.
    expect(pinchStep([{ x: 60, y: 100 }, { x: 140, y: 100 }], [{ x: 20, y: 100 }, { x: 180, y: 100 }])).toEqual({ at: { x: 100, y: 100 }, factor: 2, dx: 0, dy: 0 });
    // Together, the same distance apart: pan only.
    expect(pinchStep([{ x: 0, y: 0 }, { x: 30, y: 40 }], [{ x: 10, y: -5 }, { x: 40, y: 35 }])).toEqual({ at: { x: 15, y: 20 }, factor: 1, dx: 10, dy: -5 });
    // Closer while moving: both; the order of the fingers does not matter.
    const step = pinchStep([{ x: 0, y: 0 }, { x: 100, y: 0 }], [{ x: 70, y: 20 }, { x: 20, y: 20 }]);
    expect(step).toEqual({ at: { x: 50, y: 0 }, factor: 0.5, dx: -5, dy: 20 });
    // Fingers on one spot have no distance to compare: no zoom, and no division by zero.
    expect(pinchStep([{ x: 5, y: 5 }, { x: 5, y: 5 }], [{ x: 0, y: 5 }, { x: 10, y: 5 }]).factor).toBe(1);
  });

  it('puts the label tag above the box, or inside it at the top of the stage', () => {
    expect(tagPosition({ x: 5, y: 40, width: 10, height: 10 }, 18)).toEqual({ x: 5, y: 22 });
    expect(tagPosition({ x: 5, y: 4, width: 10, height: 10 }, 18)).toEqual({ x: 5, y: 4 });
    // Exactly the tag's height above the box is room enough.
    expect(tagPosition({ x: 5, y: 18, width: 10, height: 10 }, 18)).toEqual({ x: 5, y: 0 });
  });
});
