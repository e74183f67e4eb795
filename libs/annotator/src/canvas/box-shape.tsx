import type Konva from 'konva';
import { memo, useMemo } from 'react';
import type { JSX } from 'react';
import { Rect } from './konva-parts';
import type { Point } from '@crowdbox/boxes';
import { withAlpha } from './label-colors.util';

/** What a box node reports; one stable object for all boxes, so memoized boxes never re-render for it. */
export interface BoxHandlers {
  dragBound(node: Konva.Node, pos: Point): Point;
  dragStart(index: number, node: Konva.Rect): void;
  dragMove(index: number, node: Konva.Rect): void;
  dragEnd(index: number, node: Konva.Rect): void;
  transformStart(index: number, node: Konva.Rect): void;
  transform(index: number, node: Konva.Rect): void;
  transformEnd(index: number, node: Konva.Rect): void;
  hover(node: Konva.Rect, over: boolean): void;
}

export interface BoxShapeProps {
  index: number;
  x: number;
  y: number;
  width: number;
  height: number;
  color: string;
  selected: boolean;
  /** Only the selected box of an editable annotator moves; others start a new drawing or a click. */
  draggable: boolean;
  handlers: BoxHandlers;
}

/** Boxes take clicks on their whole area, so the fill must be set; this one is invisible. */
const INVISIBLE_FILL = 'rgba(0, 0, 0, 0.001)';

export const BOX_NAME = 'box';
export const boxNodeId = (index: number): string => `box-${index}`;

/** The index of a box node, or null when the node is not a box. */
export function boxIndexOf(node: Konva.Node): number | null {
  if (!node.hasName(BOX_NAME)) return null;
  const index = Number(node.id().slice('box-'.length));
  return Number.isInteger(index) ? index : null;
}

/**
 * One box: a plain Rect in screen pixels, memoized on primitive props, so moving one box or changing
 * the selection re-renders only the boxes whose props changed. While dragged, Konva moves the node
 * itself and the store hears about it once, at the end.
 */
export const BoxShape = memo(function BoxShape(props: BoxShapeProps): JSX.Element {
  const { index, x, y, width, height, color, selected, draggable, handlers } = props;
  // Stable listeners: a box re-rendered for a new position (zoom, pan) does not rebind its events.
  const events = useMemo(
    () => ({
      dragBoundFunc(this: Konva.Node, pos: Point): Point {
        return handlers.dragBound(this, pos);
      },
      onDragStart: (e: Konva.KonvaEventObject<DragEvent>) => handlers.dragStart(index, e.target as Konva.Rect),
      onDragMove: (e: Konva.KonvaEventObject<DragEvent>) => handlers.dragMove(index, e.target as Konva.Rect),
      onDragEnd: (e: Konva.KonvaEventObject<DragEvent>) => handlers.dragEnd(index, e.target as Konva.Rect),
      onTransformStart: (e: Konva.KonvaEventObject<Event>) => handlers.transformStart(index, e.target as Konva.Rect),
      onTransform: (e: Konva.KonvaEventObject<Event>) => handlers.transform(index, e.target as Konva.Rect),
      onTransformEnd: (e: Konva.KonvaEventObject<Event>) => handlers.transformEnd(index, e.target as Konva.Rect),
      onMouseEnter: (e: Konva.KonvaEventObject<MouseEvent>) => handlers.hover(e.target as Konva.Rect, true),
      onMouseLeave: (e: Konva.KonvaEventObject<MouseEvent>) => handlers.hover(e.target as Konva.Rect, false),
    }),
    [index, handlers],
  );
  return (
    <Rect
      id={boxNodeId(index)}
      name={BOX_NAME}
      x={x}
      y={y}
      width={width}
      height={height}
      stroke={color}
      strokeWidth={selected ? 2.5 : 1.5}
      strokeScaleEnabled={false}
      fill={selected ? withAlpha(color, 0.2) : INVISIBLE_FILL}
      perfectDrawEnabled={false}
      shadowEnabled={false}
      shadowForStrokeEnabled={false}
      draggable={draggable}
      {...events}
    />
  );
});
