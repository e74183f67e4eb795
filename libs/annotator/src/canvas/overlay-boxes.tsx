import { memo } from 'react';
import type { JSX } from 'react';
import { Rect } from './konva-parts';
import type { Viewport } from '@crowdbox/boxes';
import type { OverlayBoxSet } from '../annotator.types';
import { UNKNOWN_LABEL_COLOR } from './label-colors.util';
import { boxToScreen } from './stage-geometry.util';

export interface OverlayBoxesProps {
  overlays: readonly OverlayBoxSet[];
  viewport: Viewport;
  colors: ReadonlyMap<string, string>;
}

/** Read-only box sets (each worker's boxes in the console), dashed and deaf to the pointer. */
export const OverlayBoxes = memo(function OverlayBoxes({ overlays, viewport, colors }: OverlayBoxesProps): JSX.Element {
  return (
    <>
      {overlays
        .filter((o) => o.visible)
        .flatMap((o) =>
          o.boxes.map((box, i) => {
            const r = boxToScreen(box, viewport);
            return (
              <Rect
                key={`${o.id}-${i}`}
                x={r.x}
                y={r.y}
                width={r.width}
                height={r.height}
                stroke={o.color ?? colors.get(box.label) ?? UNKNOWN_LABEL_COLOR}
                strokeWidth={1.5}
                dash={[6, 4]}
                strokeScaleEnabled={false}
                listening={false}
                perfectDrawEnabled={false}
                shadowEnabled={false}
              />
            );
          }),
        )}
    </>
  );
});
