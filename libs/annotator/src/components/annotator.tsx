import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { JSX } from 'react';
import type { AnnotatorProps, OverlayBoxSet } from '../annotator.types';
import { AnnotatorStage } from '../canvas/annotator-stage';
import { labelColors } from '../canvas/label-colors.util';
import { useImage } from '../canvas/use-image';
import { useStageSize } from '../canvas/use-stage-size';
import { KEYMAP } from '../keymap/keymap';
import type { KeyCommand } from '../keymap/keymap';
import { useKeymap } from '../keymap/use-keymap';
import { actions, type EditorAction } from '../store/editor.actions';
import { activeLabel, canAddBox, canRedo, canUndo } from '../store/editor.selectors';
import * as s from './annotator.styles';
import { BoxLimitStatus } from './box-limit-status';
import { BoxList } from './box-list';
import { KeymapHelp } from './keymap-help';
import { LabelLegend, LabelPicker } from './label-picker';
import { SelectionStatus } from './selection-status';
import { Toolbar } from './toolbar';
import { useAnnotatorStore } from './use-annotator-store';

const NO_OVERLAYS: OverlayBoxSet[] = [];

/** The zoom is said once it has held this long: a wheel turn is dozens of zooms, one announcement. */
export const ZOOM_SETTLE_MS = 400;

const isZoom = (action: EditorAction): boolean => action.type === 'zoomAt' || action.type === 'zoomBy' || action.type === 'fit';

/**
 * The bounding-box editor. Boxes come in and go out (onChange) in image pixels; without onChange, or
 * with readOnly, it only shows them (and the overlays) with zoom and pan.
 */
export function Annotator(props: AnnotatorProps): JSX.Element {
  const { imageUrl, labels, boxes, onChange, readOnly = false, maxBoxes, overlays = NO_OVERLAYS, onImageSize, onImageStatus, className, height } = props;
  const editable = !readOnly && onChange !== undefined;
  const labelNames = useMemo(() => labels.map((l) => l.name), [labels]);
  const colors = useMemo(() => labelColors(labels), [labels]);
  const { store, state, dispatch: storeDispatch } = useAnnotatorStore({ boxes, labels: labelNames, editable, maxBoxes: maxBoxes ?? null, onChange });
  // Every zoom (wheel, keys, toolbar) is said in a status once the zoom stops changing.
  const [zoomSaid, setZoomSaid] = useState('');
  const zoomTimer = useRef(0);
  useEffect(() => () => window.clearTimeout(zoomTimer.current), []);
  const dispatch = useCallback(
    (action: EditorAction) => {
      storeDispatch(action);
      if (!isZoom(action)) return;
      window.clearTimeout(zoomTimer.current);
      zoomTimer.current = window.setTimeout(() => setZoomSaid(`Zoom ${Math.round(store.getState().viewport.scale * 100)}%`), ZOOM_SETTLE_MS);
    },
    [storeDispatch, store],
  );
  const { image, status, size, retry } = useImage(imageUrl);

  const [helpOpen, setHelpOpen] = useState(false);
  const [spaceHeld, setSpaceHeld] = useState(false);
  const [panning, setPanning] = useState(false);
  const containerRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  // A ref, not state: taking and letting go of a box re-renders nothing.
  const boxHeld = useRef(false);
  const onHoldChange = useCallback((held: boolean) => {
    boxHeld.current = held;
  }, []);

  const onImageSizeRef = useRef(onImageSize);
  const onImageStatusRef = useRef(onImageStatus);
  useEffect(() => {
    onImageSizeRef.current = onImageSize;
    onImageStatusRef.current = onImageStatus;
  });
  useEffect(() => {
    onImageStatusRef.current?.(status);
  }, [status]);
  // The Retry button goes away as the image loads again: the focus goes to the stage, not to the page body.
  const retryImage = useCallback(() => {
    stageRef.current?.focus({ preventScroll: true });
    retry();
  }, [retry]);
  useEffect(() => {
    if (status !== 'loaded' || !size) return;
    store.dispatch(actions.imageLoaded(size));
    onImageSizeRef.current?.(size);
  }, [size, status, store]);

  const onStageSize = useCallback((size: { width: number; height: number }) => store.dispatch(actions.stageResized(size)), [store]);
  useStageSize(stageRef, onStageSize);

  // The keymap's Close button goes away with it: the focus goes back to what opened it (the ? button,
  // the stage), or to the stage, instead of falling to the page's body.
  const helpOpener = useRef<HTMLElement | null>(null);
  const openHelp = useCallback(() => {
    const active = document.activeElement;
    helpOpener.current = active instanceof HTMLElement && active !== document.body ? active : null;
    setHelpOpen(true);
  }, []);
  const closeHelp = useCallback(() => {
    const back = helpOpener.current?.isConnected ? helpOpener.current : stageRef.current;
    helpOpener.current = null;
    back?.focus({ preventScroll: true });
    setHelpOpen(false);
  }, []);
  const toggleHelp = useCallback(() => (helpOpen ? closeHelp() : openHelp()), [helpOpen, closeHelp, openHelp]);

  const run = useCallback(
    (command: KeyCommand) => {
      if ('action' in command) dispatch(command.action);
      else if (command.ui === 'toggleHelp') toggleHelp();
      else if (command.ui === 'closeHelp') closeHelp();
      else if (command.ui === 'holdPan') setSpaceHeld(true);
      else if (command.ui === 'leaveStage') stageRef.current?.blur();
    },
    [dispatch, toggleHelp, closeHelp],
  );
  useKeymap({
    keymap: KEYMAP,
    containerRef,
    stageRef,
    helpOpen,
    hasSelection: state.selected !== null,
    boxCount: state.boxes.length,
    boxHeld: () => boxHeld.current,
    run,
    onReleasePan: () => setSpaceHeld(false),
  });

  const onSelect = useCallback((index: number) => dispatch(actions.select(index)), [dispatch]);
  const onDelete = useCallback((index: number) => dispatch(actions.deleteBox(index)), [dispatch]);
  const onPress = useCallback(() => stageRef.current?.focus({ preventScroll: true }), []);

  const { viewport } = state;
  // At the box limit a drag draws nothing, so the pointer does not offer to.
  const cursor = panning ? 'grabbing' : spaceHeld ? 'grab' : editable && canAddBox(state) ? 'crosshair' : 'default';

  return (
    <div ref={containerRef} data-testid="annotator" className={className} style={s.root(height)}>
      <div style={s.stageColumn}>
        <div
          ref={stageRef}
          data-testid="annotator-stage"
          data-viewport={JSON.stringify({ scale: viewport.scale, x: viewport.offsetX, y: viewport.offsetY })}
          data-image-size={state.image ? JSON.stringify(state.image) : undefined}
          data-selected={state.selected ?? ''}
          tabIndex={0}
          role="application"
          aria-label="Image to annotate. Press ? for the keyboard shortcuts."
          style={s.stageWrapper(height, cursor)}
          // The middle button would start the browser's auto-scroll instead of panning.
          onMouseDown={(e) => e.button === 1 && e.preventDefault()}
        >
          <div style={s.stageLayer}>
            <AnnotatorStage
            store={store}
            state={state}
            dispatch={dispatch}
            image={status === 'loaded' ? image : null}
            colors={colors}
            overlays={overlays}
            editable={editable}
            spaceHeld={spaceHeld}
            onPanningChange={setPanning}
            onPress={onPress}
            onHoldChange={onHoldChange}
            />
          </div>
          {status === 'loading' && <div style={s.stageMessage}>Loading image…</div>}
          {status === 'error' && (
            <div style={s.stageError}>
              <p role="alert" data-testid="annotator-error" style={{ margin: 0 }}>
                The image didn&rsquo;t load.
              </p>
              <button type="button" onClick={retryImage} style={s.button} data-testid="annotator-retry">
                Retry
              </button>
            </div>
          )}
          {helpOpen && <KeymapHelp readOnly={!editable} onClose={closeHelp} />}
        </div>
      </div>
      <aside style={s.sidebar}>
        <Toolbar
          scale={viewport.scale}
          zoomStatus={zoomSaid}
          canUndo={canUndo(state)}
          canRedo={canRedo(state)}
          editable={editable}
          helpOpen={helpOpen}
          onZoomIn={() => dispatch(actions.zoomBy(1.25))}
          onZoomOut={() => dispatch(actions.zoomBy(0.8))}
          onFit={() => dispatch(actions.fit())}
          onUndo={() => dispatch(actions.undo())}
          onRedo={() => dispatch(actions.redo())}
          onToggleHelp={toggleHelp}
        />
        {labels.length > 0 &&
          (editable ? (
            <LabelPicker
              labels={labels}
              active={activeLabel(state)}
              hasSelection={state.selected !== null}
              onPick={(label) => dispatch(actions.pickLabel(label))}
            />
          ) : (
            // A viewer has nothing to draw or relabel: the labels' colours only, no picker.
            <LabelLegend labels={labels} />
          ))}
        {editable && state.maxBoxes !== null && (
          <BoxLimitStatus count={state.boxes.length} max={state.maxBoxes} refusals={state.refusedAtLimit} />
        )}
        <SelectionStatus boxes={state.boxes} selected={state.selected} />
        <BoxList
          boxes={state.boxes}
          max={editable ? state.maxBoxes : null}
          selected={state.selected}
          colors={colors}
          editable={editable}
          drawable={editable && status === 'loaded'}
          onSelect={onSelect}
          onDelete={onDelete}
        />
      </aside>
    </div>
  );
}
