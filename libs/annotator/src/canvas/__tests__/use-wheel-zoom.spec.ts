import { renderHook } from '@testing-library/react';
import type Konva from 'konva';
import { actions } from '../../store/editor.actions';
import type { EditorAction } from '../../store/editor.actions';
import { wheelZoomFactor } from '../stage-geometry.util';
import { useWheelZoom } from '../use-wheel-zoom';

/** A Konva wheel event over the stage with the pointer at `at`. */
function wheel(deltaY: number, at: { x: number; y: number }) {
  const preventDefault = jest.fn();
  const event = { evt: { deltaY, deltaMode: 0, preventDefault }, target: { getStage: () => ({ getPointerPosition: () => at }) } };
  return { event: event as unknown as Konva.KonvaEventObject<WheelEvent>, preventDefault };
}

describe('useWheelZoom', () => {
  let frames: FrameRequestCallback[] = [];
  beforeEach(() => {
    frames = [];
    jest.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => frames.push(cb));
    jest.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('zooms once per animation frame, by the product of that frame’s wheel steps, at the latest cursor point', () => {
    const dispatched: EditorAction[] = [];
    const { result } = renderHook(() => useWheelZoom((a) => dispatched.push(a)));
    const steps = [wheel(-100, { x: 10, y: 20 }), wheel(-100, { x: 11, y: 20 }), wheel(-40, { x: 12, y: 21 })];
    for (const step of steps) result.current(step.event);

    // The page's own scroll is refused at every event, but nothing is redrawn before the frame.
    for (const step of steps) expect(step.preventDefault).toHaveBeenCalled();
    expect(dispatched).toEqual([]);
    expect(frames).toHaveLength(1);

    frames[0](0);
    expect(dispatched).toHaveLength(1);
    const zoom = dispatched[0] as Extract<EditorAction, { type: 'zoomAt' }>;
    expect(zoom.screenPoint).toEqual({ x: 12, y: 21 });
    expect(zoom.factor).toBeCloseTo(wheelZoomFactor(-100) * wheelZoomFactor(-100) * wheelZoomFactor(-40), 12);

    // The next event starts a new frame of its own.
    result.current(wheel(100, { x: 5, y: 5 }).event);
    expect(frames).toHaveLength(2);
    frames[1](16);
    expect(dispatched[1]).toEqual(actions.zoomAt({ x: 5, y: 5 }, wheelZoomFactor(100)));
  });
});
