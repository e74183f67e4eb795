export type Rgb = [number, number, number];

/** A truecolour PNG from a pixel function (png-encoder.js). */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer;
