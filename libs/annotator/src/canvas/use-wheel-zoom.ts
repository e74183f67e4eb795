import type Konva from 'konva';
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';
import type { Point } from '@crowdbox/boxes';
import { actions } from '../store/editor.actions';
import type { EditorAction } from '../store/editor.actions';
import { wheelZoomFactor } from './stage-geometry.util';

/**
 * The stage's wheel handler: zooms at the cursor at most once per animation frame, as panning does. A
 * wheel or touchpad sends many events a frame, and each zoom moves every box, so React would render
 * them all per event; the factors of one frame are multiplied into one zoom at the latest cursor point
 * (the cursor hardly moves within a frame).
 */
export function useWheelZoom(dispatch: (action: EditorAction) => void): (e: Konva.KonvaEventObject<WheelEvent>) => void {
  const latest = useRef(dispatch);
  useLayoutEffect(() => {
    latest.current = dispatch;
  });
  const pending = useRef<{ at: Point; factor: number } | null>(null);
  const frame = useRef(0);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  return useCallback((e: Konva.KonvaEventObject<WheelEvent>) => {
    e.evt.preventDefault();
    const at = e.target.getStage()?.getPointerPosition();
    if (!at) return;
    pending.current = { at, factor: (pending.current?.factor ?? 1) * wheelZoomFactor(e.evt.deltaY, e.evt.deltaMode) };
    if (frame.current) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = 0;
      const zoom = pending.current;
      pending.current = null;
      if (zoom) latest.current(actions.zoomAt(zoom.at, zoom.factor));
    });
  }, []);
}
