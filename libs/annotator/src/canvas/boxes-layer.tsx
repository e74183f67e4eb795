import { memo, useMemo } from 'react';
import type { JSX } from 'react';
import { Layer } from './konva-parts';
import type { Box, Viewport } from '@crowdbox/boxes';
import { BoxShape } from './box-shape';
import type { BoxHandlers } from './box-shape';
import { drawOrder } from './draw-order.util';
import { UNKNOWN_LABEL_COLOR } from './label-colors.util';
import { boxToScreen } from './stage-geometry.util';

export interface BoxesLayerProps {
  boxes: readonly Box[];
  selected: number | null;
  viewport: Viewport;
  colors: ReadonlyMap<string, string>;
  /** The selected box can be dragged (editable, and Space is not held for panning). */
  canDrag: boolean;
  handlers: BoxHandlers;
}

export const BoxesLayer = memo(function BoxesLayer(props: BoxesLayerProps): JSX.Element {
  const { boxes, selected, viewport, colors, canDrag, handlers } = props;
  // Smaller boxes on top, so each can be pressed where boxes overlap; the selected box's handles are in
  // the transformer's layer above all boxes, so they stay in reach whatever the order.
  const order = useMemo(() => drawOrder(boxes), [boxes]);
  return (
    <Layer>
      {order.map((index) => {
        const box = boxes[index];
        const r = boxToScreen(box, viewport);
        return (
          <BoxShape
            // Boxes have no id of their own; the index is what the store and onChange use too.
            key={index}
            index={index}
            x={r.x}
            y={r.y}
            width={r.width}
            height={r.height}
            color={colors.get(box.label) ?? UNKNOWN_LABEL_COLOR}
            selected={index === selected}
            draggable={canDrag && index === selected}
            handlers={handlers}
          />
        );
      })}
    </Layer>
  );
});
