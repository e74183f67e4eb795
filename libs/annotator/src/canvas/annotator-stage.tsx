import type Konva from 'konva';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import type { JSX } from 'react';
import { Image as KonvaImage, Label, Layer, Rect, Stage, Tag, Text, Transformer } from './konva-parts';
import type { OverlayBoxSet } from '../annotator.types';
import type { EditorAction } from '../store/editor.actions';
import type { EditorState } from '../store/editor-state.types';
import type { EditorStore } from '../store/editor-store';
import { MIN_BOX_SIZE } from '../store/box-edit.util';
import { boxIndexOf, boxNodeId } from './box-shape';
import { BoxesLayer } from './boxes-layer';
import { UNKNOWN_LABEL_COLOR } from './label-colors.util';
import { OverlayBoxes } from './overlay-boxes';
import { boundResize, boxToScreen, imageToScreenRect, tagPosition } from './stage-geometry.util';
import { TAG_HEIGHT, useBoxHandlers } from './use-box-handlers';
import { usePointerGestures } from './use-pointer-gestures';
import { useTouchPinch } from './use-touch-pinch';
import { useWheelZoom } from './use-wheel-zoom';

/**
 * On a touch screen a fingertip covers ~40 px, and an 8 px corner is hard to hit. The corners keep their
 * drawn size (a larger square would hide a small box) but take presses 12 px around them: the width of
 * the stroke drawn on Konva's hit canvas only.
 */
const TOUCH_ANCHOR_HIT_STROKE = 24;
const touchAnchor = (anchor: Konva.Rect): void => {
  anchor.hitStrokeWidth(TOUCH_ANCHOR_HIT_STROKE);
};

export interface AnnotatorStageProps {
  store: EditorStore;
  state: EditorState;
  dispatch: (action: EditorAction) => void;
  image: HTMLImageElement | null;
  colors: ReadonlyMap<string, string>;
  overlays: readonly OverlayBoxSet[];
  editable: boolean;
  spaceHeld: boolean;
  onPanningChange: (panning: boolean) => void;
  /** A press on the stage: the wrapper takes focus so the stage keys apply. */
  onPress: () => void;
  /** A box is taken (true) or let go (false) by the pointer. */
  onHoldChange: (held: boolean) => void;
}

/**
 * The Konva stage: layers for the image, overlays, boxes, the drawing preview and the transformer.
 * The stage and its layers are never scaled: every node is placed in screen pixels computed from
 * image pixels by the transforms of @crowdbox/boxes, and every pointer position goes back the same way.
 */
export function AnnotatorStage(props: AnnotatorStageProps): JSX.Element | null {
  const { store, state, dispatch, image, colors, overlays, editable, spaceHeld, onPanningChange, onPress, onHoldChange } = props;
  const stageRef = useRef<Konva.Stage>(null);
  const previewRef = useRef<Konva.Rect>(null);
  const tagRef = useRef<Konva.Label>(null);
  const transformerRef = useRef<Konva.Transformer>(null);

  const pinch = useTouchPinch({ dispatch, stageElement: () => stageRef.current?.container() ?? null });
  const handlers = useBoxHandlers({
    store,
    dispatch,
    tag: () => tagRef.current,
    dragLayer: () => transformerRef.current?.getLayer() ?? null,
    paused: pinch.pinching,
    onHoldChange,
  });
  const gestures = usePointerGestures({
    store,
    dispatch,
    editable,
    stageElement: () => stageRef.current?.container() ?? null,
    preview: () => previewRef.current,
    onPanningChange,
  });
  const onWheel = useWheelZoom(dispatch);
  // Any touch screen, even beside a mouse: a wider hit area costs a mouse nothing.
  const touchScreen = useMemo(() => typeof window !== 'undefined' && window.matchMedia?.('(any-pointer: coarse)').matches === true, []);

  const { viewport, boxes, selected } = state;
  const selectedBox = selected === null ? null : (boxes[selected] ?? null);

  // A zoom or pan in the middle of a drag: the dragged box, which this render put where the stored box is,
  // goes back under the pointer (a resized one to its new edges), and a drawing's outline is redrawn.
  const { viewportChanged: gesturesViewportChanged } = gestures;
  useLayoutEffect(() => {
    handlers.viewportChanged();
    gesturesViewportChanged();
  }, [handlers, gesturesViewportChanged, viewport]);

  useEffect(() => {
    const transformer = transformerRef.current;
    if (!transformer) return;
    const node = editable && selected !== null ? stageRef.current?.findOne(`#${boxNodeId(selected)}`) : undefined;
    transformer.nodes(node ? [node] : []);
    transformer.getLayer()?.batchDraw();
  }, [editable, selected, boxes, viewport]);

  if (!state.stage) return null;

  const onPointerDown = (e: Konva.KonvaEventObject<PointerEvent>): void => {
    onPress();
    const evt = e.evt;
    if (evt.pointerType === 'touch') {
      pinch.track(evt);
      // A second finger makes a pinch: a box the first one was moving or resizing stays where it is now,
      // and one it rested on without moving yet (Konva's drag waits for 3 px) does not start moving.
      if (evt.isPrimary === false) {
        stageRef.current?.find((node: Konva.Node) => node.draggable()).forEach((node) => node.stopDrag());
        if (transformerRef.current?.isTransforming()) transformerRef.current.stopTransform();
        return;
      }
    }
    if (evt.button === 1 || (evt.button === 0 && spaceHeld)) {
      evt.preventDefault();
      gestures.startPan(evt);
      return;
    }
    if (evt.button !== 0) return;
    if (e.target === e.target.getStage()) {
      gestures.startPress(evt, null);
      return;
    }
    const index = boxIndexOf(e.target);
    // The selected box of an editable annotator is Konva's to drag; any other box press is a click or a new drawing.
    if (index !== null && !(editable && index === selected)) gestures.startPress(evt, index);
  };

  const imageRect = state.image ? imageToScreenRect(state.image, viewport) : null;
  const selectedRect = selectedBox ? boxToScreen(selectedBox, viewport) : null;
  const selectedColor = selectedBox ? (colors.get(selectedBox.label) ?? UNKNOWN_LABEL_COLOR) : UNKNOWN_LABEL_COLOR;

  return (
    <Stage ref={stageRef} width={state.stage.width} height={state.stage.height} onPointerDown={onPointerDown} onWheel={onWheel}>
      <Layer listening={false} imageSmoothingEnabled={viewport.scale < 2}>
        {image && imageRect && <KonvaImage image={image} {...imageRect} perfectDrawEnabled={false} />}
      </Layer>
      <Layer listening={false}>
        <OverlayBoxes overlays={overlays} viewport={viewport} colors={colors} />
      </Layer>
      <BoxesLayer
        boxes={boxes}
        selected={selected}
        viewport={viewport}
        colors={colors}
        canDrag={editable && !spaceHeld}
        handlers={handlers}
      />
      <Layer listening={false}>
        <Rect ref={previewRef} visible={false} stroke="#ffffff" strokeWidth={1} dash={[4, 4]} fill="rgba(255, 255, 255, 0.12)" perfectDrawEnabled={false} />
        {selectedBox && selectedRect && (
          <Label ref={tagRef} {...tagPosition(selectedRect, TAG_HEIGHT)}>
            <Tag fill={selectedColor} />
            <Text text={selectedBox.label || '(no label)'} fontSize={12} padding={3} fill="#ffffff" height={TAG_HEIGHT} />
          </Label>
        )}
      </Layer>
      <Layer>
        <Transformer
          ref={transformerRef}
          rotateEnabled={false}
          flipEnabled={false}
          keepRatio={false}
          ignoreStroke
          anchorSize={8}
          anchorStyleFunc={touchScreen ? touchAnchor : undefined}
          // A corner a second finger came down on starts resizing at once: not during a pinch.
          onTransformStart={() => {
            if (pinch.pinching()) transformerRef.current?.stopTransform();
          }}
          borderEnabled={false}
          boundBoxFunc={(oldBox, newBox) => {
            const current = store.getState();
            if (!current.image) return oldBox;
            const bounds = imageToScreenRect(current.image, current.viewport);
            return boundResize(oldBox, newBox, bounds, Math.min(MIN_BOX_SIZE, current.image.width, current.image.height) * current.viewport.scale);
          }}
        />
      </Layer>
    </Stage>
  );
}
