import type Konva from 'konva';
import { useEffect, useMemo, useRef } from 'react';
import { imageRectToScreen, imageToScreen, screenToImage } from '@crowdbox/boxes';
import type { Box, Point, Rect } from '@crowdbox/boxes';
import { actions } from '../store/editor.actions';
import type { EditorAction } from '../store/editor.actions';
import type { EditorStore } from '../store/editor-store';
import type { BoxHandlers } from './box-shape';
import { boxToScreen, clampDragPosition, dragDelta, screenNodeToImage, tagPosition, toNodeRect } from './stage-geometry.util';
import type { NodeRect } from './stage-geometry.util';

export const TAG_HEIGHT = 18;

export interface BoxHandlerOptions {
  store: EditorStore;
  dispatch: (action: EditorAction) => void;
  /** The selected box's label tag, which follows the box while it is dragged or resized. */
  tag: () => Konva.Node | null;
  /** A small layer the dragged box moves to, so the other boxes are not redrawn on every move. */
  dragLayer: () => Konva.Layer | null;
  /** True while a gesture that moves no box is under way (a two-finger pinch): a drag that starts then is stopped. */
  paused?: () => boolean;
  /** A box is taken (true) or let go (false) by the pointer, to move or to resize: edit keys wait meanwhile. */
  onHoldChange?: (held: boolean) => void;
}

const nodeRect = (node: Konva.Rect): NodeRect => ({
  x: node.x(),
  y: node.y(),
  width: node.width() * node.scaleX(),
  height: node.height() * node.scaleY(),
});

/** The box handlers, and what the stage calls after each render with a new viewport. */
export interface BoxDragHandlers extends BoxHandlers {
  /**
   * The viewport changed (a wheel zoom, a zoom or pan key, a refit) while a box may be dragged or resized:
   * React has just put the node back where the stored box is at the new viewport; a dragged box goes back
   * under the pointer, a resized one back to the edges it had been given.
   */
  viewportChanged(): void;
}

/**
 * Move and resize: Konva moves or scales the node while the pointer is down, and on release the
 * node's screen rect goes through screenToImage into one store action. The node is then put exactly
 * where the stored (clamped, rounded) box is, since React would not touch it if its props are equal.
 *
 * A drag is followed in image pixels: the image point the pointer grabbed (from the box's top-left)
 * stays under the pointer, and the drop is where the box's top-left last was in the image. Konva keeps
 * the grip as a screen offset, which a zoom in the middle of the drag would make wrong.
 *
 * A handle resize is followed in image pixels too: Konva keeps the change as the node's scale, and the
 * render for a new zoom sets the stored box's screen rect under that scale, so the resized edges are
 * kept in image pixels and put back on the node at the new viewport, where the Transformer measures again.
 */
export function useBoxHandlers(options: BoxHandlerOptions): BoxDragHandlers {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  return useMemo<BoxDragHandlers>(() => {
    const followTag = (node: Konva.Rect): void => {
      latest.current.tag()?.position(tagPosition(nodeRect(node), TAG_HEIGHT));
    };
    const settle = (index: number, node: Konva.Rect): void => {
      const { boxes, viewport } = latest.current.store.getState();
      const box = boxes[index];
      if (box) node.setAttrs({ ...boxToScreen(box, viewport), scaleX: 1, scaleY: 1 });
      followTag(node);
      node.getLayer()?.batchDraw();
    };
    // Where the dragged node was among the boxes: its layer and its place in the drawing order.
    let home: { layer: Konva.Layer; zIndex: number } | null = null;
    // Konva's drag-performance pattern: while dragged, the box lives in the (small) transformer layer,
    // and it goes back to its place among the boxes before the store and React hear of the move.
    const goHome = (node: Konva.Rect): void => {
      if (!home) return;
      node.moveTo(home.layer);
      node.zIndex(Math.min(home.zIndex, home.layer.children.length - 1));
      home = null;
    };
    // The dragged box: the box as it was grabbed, its grip (the grabbed image point less the box's top-left)
    // and its top-left, in image pixels.
    let held: { node: Konva.Rect; box: Box | undefined; grip: Point | null; at: Point | null } | null = null;
    // A node is bound to an index, and an index to whichever box is there now: a release moves or resizes
    // the box at the index only if it is still the box that was taken (not one an edit put in its place).
    const stillThere = (index: number, taken: Box | undefined): boolean => {
      const box = latest.current.store.getState().boxes[index];
      return box !== undefined && box === taken;
    };
    const setHeld = (isHeld: boolean): void => {
      latest.current.onHoldChange?.(isHeld);
      if (isHeld) letGoOnPointerUp();
    };
    // Konva ends a drag or a handle resize on the pointer's release. If a render took the node from it
    // first (another tab replaced the boxes mid-resize, and the transformer moved to another box), no end
    // comes, and the edit keys would wait for good: once the release's events are through, a hold with no
    // end is let go of.
    const letGoOnPointerUp = (): void => {
      const release = (): void => {
        window.removeEventListener('pointerup', release);
        window.removeEventListener('pointercancel', release);
        setTimeout(() => {
          if (!held && !resized) return;
          held = null;
          resized = null;
          latest.current.onHoldChange?.(false);
        }, 0);
      };
      window.addEventListener('pointerup', release);
      window.addEventListener('pointercancel', release);
    };
    // Where the dragged node goes for the pointer now (Konva proposes `proposed`), kept inside the image.
    const follow = (node: Konva.Rect, proposed: Point): Point => {
      const { image, viewport } = latest.current.store.getState();
      const pointer = node.getStage()?.getPointerPosition();
      let pos = proposed;
      if (held && pointer) {
        const under = screenToImage(pointer, viewport);
        if (!held.grip) {
          const topLeft = screenToImage(proposed, viewport);
          held.grip = { x: under.x - topLeft.x, y: under.y - topLeft.y };
        }
        pos = imageToScreen({ x: under.x - held.grip.x, y: under.y - held.grip.y }, viewport);
      }
      if (!image) return pos;
      const bounded = clampDragPosition(pos, { width: node.width() * node.scaleX(), height: node.height() * node.scaleY() }, image, viewport);
      if (held) held.at = screenToImage(bounded, viewport);
      return bounded;
    };
    // The box being resized by a handle: the box as it was taken, and its edges in image pixels as the
    // last transform event left them.
    let resized: { node: Konva.Rect; box: Box | undefined; rect: Rect } | null = null;
    const measureResize = (index: number, node: Konva.Rect): void => {
      const { boxes, viewport } = latest.current.store.getState();
      const box = resized?.node === node ? resized.box : boxes[index];
      resized = { node, box, rect: screenNodeToImage(nodeRect(node), viewport) };
    };
    // After a render for a new viewport: the resized node at its edges, unscaled, as settle leaves a node.
    const restoreResize = (): void => {
      if (!resized) return;
      const { node, rect } = resized;
      node.setAttrs({ ...toNodeRect(imageRectToScreen(rect, latest.current.store.getState().viewport)), scaleX: 1, scaleY: 1 });
      followTag(node);
      node.getLayer()?.batchDraw();
    };
    return {
      dragStart(index, node) {
        // Konva starts a finger's drag once it has moved 3 px, which may be during a pinch (a finger that
        // rested on the selected box, or came down on it second). Stopped here, before it moves the box.
        if (latest.current.paused?.()) {
          node.stopDrag();
          return;
        }
        held = { node, box: latest.current.store.getState().boxes[index], grip: null, at: null };
        setHeld(true);
        const layer = node.getLayer();
        const dragLayer = latest.current.dragLayer();
        if (!layer || !dragLayer || layer === dragLayer) return;
        home = { layer, zIndex: node.zIndex() };
        node.moveTo(dragLayer);
        node.moveToBottom();
        layer.batchDraw();
      },
      dragBound(node, pos) {
        return follow(node as Konva.Rect, pos);
      },
      dragMove(_index, node) {
        followTag(node);
      },
      dragEnd(index, node) {
        goHome(node);
        const taken = held?.node === node ? held : null;
        held = null;
        setHeld(false);
        const at = taken?.at ?? null;
        const { boxes, viewport } = latest.current.store.getState();
        const box = boxes[index];
        if (box && taken && stillThere(index, taken.box)) {
          // The node may still stand where React put it for a zoom whose render has not reached the stage.
          const delta = dragDelta(box, at ? imageToScreen(at, viewport) : node.position(), viewport);
          latest.current.dispatch(actions.moveBox(index, delta.x, delta.y));
        }
        settle(index, node);
      },
      transformStart(index, node) {
        // A pinch stops the transform as it starts (annotator-stage); nothing is held then.
        if (latest.current.paused?.()) return;
        measureResize(index, node);
        setHeld(true);
      },
      transform(index, node) {
        measureResize(index, node);
        followTag(node);
      },
      transformEnd(index, node) {
        if (resized?.node !== node) measureResize(index, node);
        const taken = resized;
        resized = null;
        setHeld(false);
        if (taken && stillThere(index, taken.box)) latest.current.dispatch(actions.resizeBox(index, taken.rect));
        settle(index, node);
      },
      viewportChanged() {
        restoreResize();
        if (!held?.grip || !held.node.isDragging()) return;
        const node = held.node;
        node.position(follow(node, node.position()));
        followTag(node);
        node.getLayer()?.batchDraw();
      },
      hover(node, over) {
        const container = node.getStage()?.container();
        if (container && node.draggable()) container.style.cursor = over ? 'move' : '';
      },
    };
  }, []);
}
