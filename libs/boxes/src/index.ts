// Pure geometry shared by the API and the web app: no framework and no Node-only APIs, so it also
// runs in the browser. Import from '@crowdbox/boxes' only; the files behind it may move.
export type { Box, ImageSize, Rect } from './box.types';
export { boxToRect, rectToBox } from './box-rect.util';
export { roundBox, roundHalfAwayFromZero } from './round.util';
export { clampBox, clampRect } from './clamp.util';
export { EDGE_ROUNDING_SLACK, boxInsideImage } from './validate.util';
export { iou, rectIou } from './iou.util';
export { median } from './median.util';
export { boxInFrame, sameSize } from './scale.util';

export type { Point, StageSize, Viewport, ZoomLimits } from './viewport.types';
export { imageRectToScreen, imageToScreen, screenRectToImage, screenToImage } from './transform.util';
export { zoomAt } from './zoom.util';
export { fitToScreen } from './fit.util';

export type { ConsensusBox, ConsensusOptions, Submission } from './consensus.types';
export { DEFAULT_IOU_THRESHOLD, consensus } from './consensus.util';
export type { PeerAgreement } from './peer-agreement.util';
export { peerAgreement } from './peer-agreement.util';
