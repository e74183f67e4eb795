import { renderHook } from '@testing-library/react';
import type Konva from 'konva';
import { clampRect, imageRectToScreen, screenToImage } from '@crowdbox/boxes';
import { actions } from '../../store/editor.actions';
import type { EditorAction } from '../../store/editor.actions';
import type { EditorState } from '../../store/editor-state.types';
import { createEditorStore } from '../../store/editor-store';
import { editor } from '../../store/__tests__/editor.fixtures';
import { usePointerGestures } from '../use-pointer-gestures';

interface PointerInit {
  id: number;
  x: number;
  y: number;
  /** The first finger on the screen (and every mouse) is primary; another finger down at the same time is not. */
  primary?: boolean;
}

/**
 * A pointer event as the browser sends it. jsdom has no PointerEvent, so a MouseEvent of the pointer
 * type carries the pointer fields.
 */
function pointer(type: string, { id, x, y, primary = id === 1 }: PointerInit): PointerEvent {
  const event = new MouseEvent(type, { clientX: x, clientY: y, button: 0, bubbles: true });
  Object.defineProperties(event, { pointerId: { value: id }, isPrimary: { value: primary }, pointerType: { value: 'touch' } });
  return event as PointerEvent;
}

/** The gestures at zoom 1 on an 800x600 image, with a stage element at the page's corner: client px are image px. */
function setUp(state: Partial<EditorState> = {}) {
  const store = createEditorStore(editor(state));
  const dispatched: EditorAction[] = [];
  // The drawing preview, as far as the gestures use it: whether it was ever shown, and where.
  const shown: boolean[] = [];
  const placed: Array<{ x?: number; y?: number; width?: number; height?: number }> = [];
  const preview = {
    setAttrs: (attrs: { visible?: boolean; x?: number; y?: number; width?: number; height?: number }) => {
      shown.push(attrs.visible === true);
      placed.push(attrs);
    },
    visible: () => undefined,
    getLayer: () => null,
  } as unknown as Konva.Rect;
  const stage = document.createElement('div');
  const { result } = renderHook(() =>
    usePointerGestures({
      store,
      dispatch: (action) => dispatched.push(action),
      editable: true,
      stageElement: () => stage,
      preview: () => preview,
      onPanningChange: () => undefined,
    }),
  );
  /** A pointer going down on the stage: Konva hands it to startPress, then it reaches the window. */
  const press = (init: PointerInit) => {
    const event = pointer('pointerdown', init);
    result.current.startPress(event, null);
    window.dispatchEvent(event);
  };
  const move = (init: PointerInit) => window.dispatchEvent(pointer('pointermove', init));
  const lift = (init: PointerInit) => window.dispatchEvent(pointer('pointerup', init));
  return { store, gestures: result, dispatched, shown, placed, press, move, lift };
}

describe('pointer gestures with more than one pointer', () => {
  it('draws with the pointer that pressed, whatever another pointer does without pressing', () => {
    const { dispatched, press, move, lift } = setUp();
    press({ id: 1, x: 100, y: 100 });
    move({ id: 2, x: 500, y: 500 });
    lift({ id: 2, x: 500, y: 500 });
    move({ id: 1, x: 150, y: 160 });
    move({ id: 1, x: 200, y: 220 });
    lift({ id: 1, x: 200, y: 220 });
    expect(dispatched).toEqual([{ type: 'drawBox', rect: { x0: 100, y0: 100, x1: 200, y1: 220 } }]);
  });

  it('draws no box for a pinch: a second finger going down abandons the drawing', () => {
    const { dispatched, press, move, lift } = setUp();
    press({ id: 1, x: 300, y: 300 });
    move({ id: 1, x: 290, y: 290 });
    press({ id: 2, x: 400, y: 400 });
    for (let i = 1; i <= 5; i++) {
      move({ id: 1, x: 290 - 8 * i, y: 290 - 8 * i });
      move({ id: 2, x: 400 + 8 * i, y: 400 + 8 * i });
    }
    // Either finger may lift first; the other one goes on moving and lifts later.
    lift({ id: 1, x: 250, y: 250 });
    move({ id: 2, x: 460, y: 460 });
    lift({ id: 2, x: 460, y: 460 });
    expect(dispatched).toEqual([]);
  });

  it('starts nothing while another finger is down, and draws again with the next single press', () => {
    const { dispatched, press, move, lift } = setUp();
    press({ id: 1, x: 300, y: 300 });
    press({ id: 2, x: 400, y: 400 });
    lift({ id: 1, x: 300, y: 300 });
    move({ id: 2, x: 480, y: 480 });
    lift({ id: 2, x: 480, y: 480 });
    expect(dispatched).toEqual([]);

    press({ id: 3, x: 100, y: 100, primary: true });
    move({ id: 3, x: 140, y: 150 });
    lift({ id: 3, x: 140, y: 150 });
    expect(dispatched).toEqual([{ type: 'drawBox', rect: { x0: 100, y0: 100, x1: 140, y1: 150 } }]);
  });
});

describe('pointer gestures at the box limit', () => {
  const drag = (g: ReturnType<typeof setUp>) => {
    g.press({ id: 1, x: 100, y: 100 });
    g.move({ id: 1, x: 150, y: 160 });
    g.lift({ id: 1, x: 200, y: 220 });
  };

  it('shows the preview of a drawing below the limit', () => {
    const g = setUp({ maxBoxes: 1 });
    drag(g);
    expect(g.shown).toEqual([true]);
    expect(g.dispatched).toEqual([{ type: 'drawBox', rect: { x0: 100, y0: 100, x1: 200, y1: 220 } }]);
  });

  it('starts no box at it: no preview, and the drag goes to the store as a drawing, which the store refuses', () => {
    const g = setUp({ maxBoxes: 1, boxes: [{ label: 'cat', center_x: 500, center_y: 500, width: 20, height: 20 }] });
    drag(g);
    expect(g.shown).toEqual([]);
    // A drawing, not a click: the drag selects nothing, and the store hears it to say why nothing was drawn.
    expect(g.dispatched).toEqual([{ type: 'drawBox', rect: { x0: 100, y0: 100, x1: 200, y1: 220 } }]);
  });
});

describe('the outline of a box being drawn', () => {
  it('is redrawn for a zoom that comes with no pointer move, where the release would put the box', () => {
    const g = setUp();
    g.press({ id: 1, x: 100, y: 100 });
    g.move({ id: 1, x: 150, y: 160 });
    expect(g.placed.at(-1)).toMatchObject({ x: 100, y: 100, width: 50, height: 60 });
    // Zoomed around the centre of the stage (a key), the pointer still: the image point under it changed.
    g.store.dispatch(actions.zoomBy(2));
    g.gestures.current.viewportChanged();
    const { viewport, image } = g.store.getState();
    const under = screenToImage({ x: 150, y: 160 }, viewport);
    const r = imageRectToScreen(clampRect({ x0: 100, y0: 100, x1: under.x, y1: under.y }, image ?? { width: 800, height: 600 }), viewport);
    expect(g.placed.at(-1)).toMatchObject({ x: r.x0, y: r.y0, width: r.x1 - r.x0, height: r.y1 - r.y0 });
  });

  it('is redrawn for the new drawing when a press came before the last one ended (its pointerup lost)', () => {
    const g = setUp();
    g.press({ id: 1, x: 100, y: 100 });
    g.move({ id: 1, x: 150, y: 160 });
    g.press({ id: 1, x: 300, y: 300 });
    g.move({ id: 1, x: 350, y: 360 });
    const before = g.placed.length;
    g.store.dispatch(actions.zoomBy(2));
    g.gestures.current.viewportChanged();
    const { viewport } = g.store.getState();
    const corner = imageRectToScreen({ x0: 300, y0: 300, x1: 300, y1: 300 }, viewport);
    expect(g.placed.length).toBe(before + 1);
    expect(g.placed.at(-1)).toMatchObject({ x: corner.x0, y: corner.y0 });
  });
});
