import { useCallback, useEffect, useRef } from 'react';
import type { Point } from '@crowdbox/boxes';
import { actions } from '../store/editor.actions';
import type { EditorAction } from '../store/editor.actions';
import { clientToStage, pinchStep } from './stage-geometry.util';

export interface TouchPinchOptions {
  dispatch: (action: EditorAction) => void;
  /** The element the stage draws into; finger positions are taken relative to it. */
  stageElement: () => HTMLElement | null;
}

/**
 * Two fingers zoom and pan, as on a map; one finger still draws (use-pointer-gestures.ts, which a
 * second finger's press ends, so a pinch never draws a box). Without it a worker on a tablet could
 * only zoom with the toolbar and never move the image.
 *
 * `track` is given every touch press on the stage. The fingers are followed on the window (a touch
 * pointer is captured by the canvas it went down on, and its events bubble there); while exactly two
 * are down, their movement since the last frame becomes one zoom and one pan per animation frame, as
 * the wheel and panning do. With one finger or three, nothing moves; it resumes from wherever the
 * fingers are when two are down again.
 */
export interface TouchPinch {
  /** Given every touch press on the stage. */
  track(evt: PointerEvent): void;
  /** Whether two or more fingers are down: no box may start moving or resizing meanwhile. */
  pinching(): boolean;
}

export function useTouchPinch(options: TouchPinchOptions): TouchPinch {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  const fingers = useRef(new Map<number, Point>());
  const applied = useRef<[Point, Point] | null>(null);
  const frame = useRef(0);
  const stop = useRef<(() => void) | null>(null);
  useEffect(() => () => stop.current?.(), []);

  const pair = (): [Point, Point] | null => {
    const points = [...fingers.current.values()];
    return points.length === 2 ? [points[0], points[1]] : null;
  };

  const flush = useCallback(() => {
    frame.current = 0;
    const now = pair();
    const from = applied.current;
    if (!now || !from) return;
    const step = pinchStep(from, now);
    applied.current = now;
    if (step.factor !== 1) latest.current.dispatch(actions.zoomAt(step.at, step.factor));
    if (step.dx !== 0 || step.dy !== 0) latest.current.dispatch(actions.pan(step.dx, step.dy));
  }, []);

  const track = useCallback(
    (evt: PointerEvent) => {
      const el = latest.current.stageElement();
      if (evt.pointerType !== 'touch' || !el) return;
      const toStage = (e: PointerEvent): Point => clientToStage(e, el.getBoundingClientRect());
      fingers.current.set(evt.pointerId, toStage(evt));
      applied.current = pair();
      if (stop.current) return; // already following: the new finger joined the map

      const move = (e: PointerEvent): void => {
        if (!fingers.current.has(e.pointerId)) return;
        fingers.current.set(e.pointerId, toStage(e));
        if (applied.current && !frame.current) frame.current = requestAnimationFrame(flush);
      };
      const lift = (e: PointerEvent): void => {
        if (!fingers.current.has(e.pointerId)) return;
        // The movement up to the lift is applied first; the pinch resumes only from a fresh pair.
        if (frame.current) {
          cancelAnimationFrame(frame.current);
          flush();
        }
        fingers.current.delete(e.pointerId);
        applied.current = pair();
        if (fingers.current.size === 0) cleanup();
      };
      const cleanup = (): void => {
        window.removeEventListener('pointermove', move);
        window.removeEventListener('pointerup', lift);
        window.removeEventListener('pointercancel', lift);
        if (frame.current) cancelAnimationFrame(frame.current);
        frame.current = 0;
        fingers.current.clear();
        applied.current = null;
        stop.current = null;
      };
      window.addEventListener('pointermove', move);
      window.addEventListener('pointerup', lift);
      window.addEventListener('pointercancel', lift);
      stop.current = cleanup;
    },
    [flush],
  );

  const pinching = useCallback(() => fingers.current.size >= 2, []);
  return { track, pinching };
}
