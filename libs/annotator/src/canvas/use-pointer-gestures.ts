import type Konva from 'konva';
import { useCallback, useEffect, useRef } from 'react';
import { clampRect, imageRectToScreen, screenToImage } from '@crowdbox/boxes';
import type { Point } from '@crowdbox/boxes';
import { actions } from '../store/editor.actions';
import { canAddBox } from '../store/editor.selectors';
import type { EditorAction } from '../store/editor.actions';
import type { EditorStore } from '../store/editor-store';
import { clientToStage, isClick, toNodeRect } from './stage-geometry.util';

export interface PointerGestureOptions {
  store: EditorStore;
  dispatch: (action: EditorAction) => void;
  editable: boolean;
  /** The element the stage draws into; pointer positions are taken relative to it. */
  stageElement: () => HTMLElement | null;
  /** The dashed rect shown while drawing (in the drawing layer). */
  preview: () => Konva.Rect | null;
  onPanningChange: (panning: boolean) => void;
}

export interface PointerGestures {
  /** A press on the image or on a box that is not being moved: a click selects, a drag draws. */
  startPress(evt: PointerEvent, hitIndex: number | null): void;
  /** Space+drag or middle-drag. */
  startPan(evt: PointerEvent): void;
  /**
   * The viewport changed (a wheel zoom, a zoom key, a refit) with no pointer move: the outline of a box
   * being drawn is put where the release would draw it now, not left where the old zoom had it.
   */
  viewportChanged(): void;
}

/**
 * Drawing and panning. Both follow the pointer on the window (so leaving the stage mid-drag is fine)
 * and turn screen positions into image pixels only through screenToImage. The drawn rect lives in
 * Konva until the pointer is released; the store hears about it once.
 *
 * One pointer at a time: a gesture follows only the pointer that began it (`pointerId`), and a second
 * pointer going down (a second finger: a pinch) abandons it, so two fingers never draw a box between
 * them. A press of a pointer that is not primary (a finger that went down while another was on the
 * screen) starts nothing.
 */
export function usePointerGestures(options: PointerGestureOptions): PointerGestures {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);
  // While a box is drawn: shows its outline again for the last pointer position at the current viewport.
  const redrawOutline = useRef<(() => void) | null>(null);

  const follow = useCallback((pointerId: number, onMove: (e: PointerEvent) => void, onUp: (e: PointerEvent | null) => void) => {
    stop.current?.();
    const move = (e: PointerEvent): void => {
      if (e.pointerId === pointerId) onMove(e);
    };
    const up = (e: PointerEvent): void => {
      if (e.pointerId !== pointerId) return;
      cleanup();
      onUp(e);
    };
    const cancel = (): void => {
      cleanup();
      onUp(null);
    };
    const otherDown = (e: PointerEvent): void => {
      if (e.pointerId !== pointerId) cancel();
    };
    // Escape abandons the gesture; taken in the capture phase so the keymap does not also see it.
    const escape = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' && e.key !== 'Esc') return;
      e.preventDefault();
      e.stopPropagation();
      cancel();
    };
    const cleanup = (): void => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', cancel);
      window.removeEventListener('pointerdown', otherDown);
      window.removeEventListener('keydown', escape, true);
      stop.current = null;
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', cancel);
    window.addEventListener('pointerdown', otherDown);
    window.addEventListener('keydown', escape, true);
    stop.current = cancel;
  }, []);

  // A finger that goes down while another is on the screen is not primary: the two are a pinch, which
  // ends whatever the first one began and begins nothing. (`=== false`: an event without the field is primary.)
  const startsGesture = (evt: PointerEvent): boolean => {
    if (evt.isPrimary !== false) return true;
    stop.current?.();
    return false;
  };

  const toStage = (e: { clientX: number; clientY: number }): Point | null => {
    const el = latest.current.stageElement();
    return el ? clientToStage(e, el.getBoundingClientRect()) : null;
  };

  const startPress = useCallback(
    (evt: PointerEvent, hitIndex: number | null) => {
      if (!startsGesture(evt)) return;
      const origin = toStage(evt);
      if (!origin) return;
      const { store } = latest.current;
      const anchor = screenToImage(origin, store.getState().viewport);
      let drawing = false;
      let lastPointer: { clientX: number; clientY: number } | null = null;

      const imageRectTo = (e: { clientX: number; clientY: number }) => {
        const p = toStage(e);
        if (!p) return null;
        const to = screenToImage(p, store.getState().viewport);
        return { point: p, rect: { x0: anchor.x, y0: anchor.y, x1: to.x, y1: to.y } };
      };
      const showOutline = (e: { clientX: number; clientY: number }): void => {
        const at = imageRectTo(e);
        const state = store.getState();
        const { image, viewport } = state;
        if (!at || !image || !latest.current.editable) return;
        if (!drawing && isClick(origin, at.point)) return;
        drawing = true;
        // At the limit no box starts: no preview, and the release's drawBox is refused (and said so) by the store.
        if (!canAddBox(state)) return;
        const preview = latest.current.preview();
        preview?.setAttrs({ ...toNodeRect(imageRectToScreen(clampRect(at.rect, image), viewport)), visible: true });
        preview?.getLayer()?.batchDraw();
      };
      const redraw = (): void => {
        if (drawing && lastPointer) showOutline(lastPointer);
      };
      redrawOutline.current = redraw;
      const hidePreview = (): void => {
        // This gesture's end, which a new press may bring about (follow stops the last gesture): not the new one's.
        if (redrawOutline.current === redraw) redrawOutline.current = null;
        const preview = latest.current.preview();
        preview?.visible(false);
        preview?.getLayer()?.batchDraw();
      };

      follow(
        evt.pointerId,
        (e) => {
          lastPointer = { clientX: e.clientX, clientY: e.clientY };
          showOutline(e);
        },
        (e) => {
          hidePreview();
          if (!e) return;
          const at = imageRectTo(e);
          if (!drawing || !at) latest.current.dispatch(actions.select(hitIndex));
          else latest.current.dispatch(actions.drawBox(at.rect));
        },
      );
    },
    [follow],
  );

  const startPan = useCallback(
    (evt: PointerEvent) => {
      if (!startsGesture(evt)) return;
      let last = { x: evt.clientX, y: evt.clientY };
      let pending = { x: 0, y: 0 };
      let frame = 0;
      // One pan per animation frame: every box moves on screen, so React renders them once per frame.
      const flush = (): void => {
        frame = 0;
        if (pending.x !== 0 || pending.y !== 0) latest.current.dispatch(actions.pan(pending.x, pending.y));
        pending = { x: 0, y: 0 };
      };
      latest.current.onPanningChange(true);
      follow(
        evt.pointerId,
        (e) => {
          pending = { x: pending.x + e.clientX - last.x, y: pending.y + e.clientY - last.y };
          last = { x: e.clientX, y: e.clientY };
          if (!frame) frame = requestAnimationFrame(flush);
        },
        () => {
          if (frame) cancelAnimationFrame(frame);
          flush();
          latest.current.onPanningChange(false);
        },
      );
    },
    [follow],
  );

  const viewportChanged = useCallback(() => redrawOutline.current?.(), []);

  return { startPress, startPan, viewportChanged };
}
