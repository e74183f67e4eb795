import { renderHook } from '@testing-library/react';
import { Rect } from 'konva/lib/shapes/Rect';
import { KonvaCore } from '../konva-parts';
import { actions } from '../../store/editor.actions';
import type { EditorAction } from '../../store/editor.actions';
import { createEditorStore } from '../../store/editor-store';
import { box, editor, ZOOM_2_7 } from '../../store/__tests__/editor.fixtures';
import { boxToScreen } from '../stage-geometry.util';
import { useBoxHandlers } from '../use-box-handlers';

/** A real Konva stage (drawn by jest-canvas-mock) with three boxes and a drag layer, at zoom 2.7 with a pan. */
function setUp() {
  const store = createEditorStore(editor({ viewport: ZOOM_2_7, boxes: [box('cat', 100, 100, 40, 20), box('dog', 300, 200, 50, 50), box('cat', 500, 400, 10, 10)], selected: 1 }));
  const dispatched: EditorAction[] = [];
  const dispatch = (action: EditorAction) => {
    dispatched.push(action);
    store.dispatch(action);
  };
  const container = document.createElement('div');
  const stage = new KonvaCore.Stage({ container, width: 800, height: 600 });
  const boxesLayer = new KonvaCore.Layer();
  const dragLayer = new KonvaCore.Layer();
  stage.add(boxesLayer, dragLayer);
  const nodes = store.getState().boxes.map((b, i) => {
    const node = new Rect({ id: `box-${i}`, ...boxToScreen(b, ZOOM_2_7) });
    boxesLayer.add(node);
    return node;
  });
  const holds: boolean[] = [];
  const { result } = renderHook(() => useBoxHandlers({ store, dispatch, tag: () => null, dragLayer: () => dragLayer, onHoldChange: (held) => holds.push(held) }));
  return { store, dispatched, handlers: result.current, nodes, boxesLayer, dragLayer, holds };
}

describe('box handlers at zoom 2.7 with a pan', () => {
  it('moves the dragged box to the drag layer and back to its place, then stores the move in image pixels', () => {
    const { store, dispatched, handlers, nodes, boxesLayer, dragLayer } = setUp();
    const node = nodes[1];
    handlers.dragStart(1, node);
    expect(node.getLayer()).toBe(dragLayer);
    // Konva moved the node 27 screen px right and 13.5 up: 10 and -5 image px.
    node.position({ x: node.x() + 27, y: node.y() - 13.5 });
    handlers.dragEnd(1, node);
    expect(node.getLayer()).toBe(boxesLayer);
    expect(boxesLayer.children.map((c) => c.id())).toEqual(['box-0', 'box-1', 'box-2']);
    expect(dispatched).toHaveLength(1);
    expect(store.getState().boxes[1]).toEqual(box('dog', 310, 195, 50, 50));
    // The node sits exactly on the stored box.
    expect(node.position()).toEqual({ x: boxToScreen(store.getState().boxes[1], ZOOM_2_7).x, y: boxToScreen(store.getState().boxes[1], ZOOM_2_7).y });
  });

  it('puts a dragged box back at its place in the drawing order, which is not its index', () => {
    const { handlers, nodes, boxesLayer } = setUp();
    // Drawn smallest last (drawOrder): the third box on top.
    nodes[1].moveToBottom();
    nodes[2].moveToTop();
    const order = () => boxesLayer.children.map((c) => c.id());
    expect(order()).toEqual(['box-1', 'box-0', 'box-2']);
    handlers.dragStart(1, nodes[1]);
    handlers.dragEnd(1, nodes[1]);
    expect(order()).toEqual(['box-1', 'box-0', 'box-2']);
  });

  it('lets go of a hold whose end never came once the pointer is released, and of no other', async () => {
    const { handlers, nodes, holds } = setUp();
    const released = async () => {
      window.dispatchEvent(new Event('pointerup'));
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    // Ended as Konva ends it: nothing more to let go of.
    handlers.transformStart(1, nodes[1]);
    handlers.transformEnd(1, nodes[1]);
    await released();
    expect(holds).toEqual([true, false]);
    // A resize whose node a render took away: no transformend, but the release still ends the hold.
    handlers.transformStart(1, nodes[1]);
    await released();
    expect(holds).toEqual([true, false, true, false]);
    handlers.dragStart(0, nodes[0]);
    await released();
    expect(holds).toEqual([true, false, true, false, true, false]);
  });

  it('keeps a dragged box inside the image', () => {
    const { handlers, nodes } = setUp();
    const pos = handlers.dragBound(nodes[1], { x: -5000, y: 5000 });
    const image = boxToScreen(box('', 400, 300, 800, 600), ZOOM_2_7);
    expect(pos.x).toBeCloseTo(image.x);
    expect(pos.y + nodes[1].height()).toBeCloseTo(image.y + image.height);
  });

  it('turns a resized node (scaled by the transformer) into an image rect and resets the scale', () => {
    const { store, handlers, nodes } = setUp();
    const node = nodes[1];
    // The bottom-right handle pulled 27 screen px right and 27 down: 60x60 image px instead of 50x50.
    node.scale({ x: (node.width() + 27) / node.width(), y: (node.height() + 27) / node.height() });
    handlers.transformEnd(1, node);
    expect(store.getState().boxes[1]).toEqual(box('dog', 305, 205, 60, 60));
    expect(node.scaleX()).toBe(1);
    expect(node.width()).toBeCloseTo(60 * 2.7);
  });

  it('moves no other box when the dragged box was deleted before its release', () => {
    const { store, dispatched, handlers, nodes } = setUp();
    const node = nodes[1];
    handlers.dragStart(1, node);
    node.position({ x: node.x() + 27, y: node.y() - 13.5 });
    // Deleted while held: the cat that was third is now at index 1, where the drag ends.
    store.dispatch(actions.deleteSelected());
    handlers.dragEnd(1, node);
    expect(dispatched).toEqual([]);
    expect(store.getState().boxes).toEqual([box('cat', 100, 100, 40, 20), box('cat', 500, 400, 10, 10)]);
  });

  it('resizes no other box when the resized box was deleted before its release', () => {
    const { store, dispatched, handlers, nodes } = setUp();
    const node = nodes[1];
    node.scale({ x: (node.width() + 27) / node.width(), y: 1 });
    handlers.transform(1, node);
    store.dispatch(actions.deleteSelected());
    handlers.transformEnd(1, node);
    expect(dispatched).toEqual([]);
    expect(store.getState().boxes).toEqual([box('cat', 100, 100, 40, 20), box('cat', 500, 400, 10, 10)]);
  });
});
