import { fitToScreen, screenToImage } from '@crowdbox/boxes';
import { actions } from '../editor.actions';
import { editorReducer } from '../editor.reducer';
import { FIT_PADDING, zoomLimits } from '../viewport.util';
import { editor, ZOOM_2_7 } from './editor.fixtures';

describe('viewport', () => {
  it('zooms at the cursor, keeping the image pixel under it in place', () => {
    const start = editor({ viewport: ZOOM_2_7 });
    const cursor = { x: 321, y: 123 };
    const before = screenToImage(cursor, start.viewport);
    const zoomed = editorReducer(start, actions.zoomAt(cursor, 1.5));
    expect(zoomed.viewport.scale).toBeCloseTo(4.05);
    const after = screenToImage(cursor, zoomed.viewport);
    expect(after.x).toBeCloseTo(before.x);
    expect(after.y).toBeCloseTo(before.y);
    expect(zoomed.autoFit).toBe(false);
  });

  it('pans in screen pixels whatever the zoom', () => {
    const panned = editorReducer(editor({ viewport: ZOOM_2_7 }), actions.pan(10, -4));
    expect(panned.viewport).toEqual({ scale: 2.7, offsetX: -125.5, offsetY: -58.25 });
  });

  it('fits the image when it loads and when the stage is resized, until the user zooms or pans', () => {
    const loaded = editorReducer(editor({ image: null, autoFit: true }), actions.imageLoaded({ width: 1600, height: 600 }));
    expect(loaded.viewport).toEqual(fitToScreen({ width: 1600, height: 600 }, { width: 800, height: 600 }, FIT_PADDING));
    const resized = editorReducer(loaded, actions.stageResized({ width: 400, height: 300 }));
    expect(resized.viewport).toEqual(fitToScreen({ width: 1600, height: 600 }, { width: 400, height: 300 }, FIT_PADDING));
    const zoomed = editorReducer(resized, actions.zoomBy(2));
    const resizedAgain = editorReducer(zoomed, actions.stageResized({ width: 800, height: 600 }));
    expect(resizedAgain.viewport).toBe(zoomed.viewport);
    expect(editorReducer(resizedAgain, actions.fit()).viewport).toEqual(loaded.viewport);
  });

  it('stops zooming at the limits instead of drifting', () => {
    let state = editor();
    for (let i = 0; i < 100; i++) state = editorReducer(state, actions.zoomBy(2));
    expect(state.viewport.scale).toBe(zoomLimits(state).maxScale);
    expect(editorReducer(state, actions.zoomBy(2))).toBe(state);
    for (let i = 0; i < 200; i++) state = editorReducer(state, actions.zoomBy(0.5));
    expect(state.viewport.scale).toBe(zoomLimits(state).minScale);
  });

  it('zooms around the centre of the stage by key', () => {
    const zoomed = editorReducer(editor(), actions.zoomBy(2));
    expect(zoomed.viewport).toEqual({ scale: 2, offsetX: -400, offsetY: -300 });
  });
});
