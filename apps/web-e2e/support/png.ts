import { encodePng, type Rgb } from './png-encoder';

/** A street-like scene: sky, road, two "cars" and a "person", so screenshots show something to box. */
export function streetScene(width: number, height: number): Buffer {
  const horizon = Math.round(height * 0.45);
  const shapes: Array<{ x0: number; y0: number; x1: number; y1: number; color: Rgb }> = [
    { x0: 0.1, y0: 0.55, x1: 0.38, y1: 0.78, color: [200, 50, 45] },
    { x0: 0.55, y0: 0.6, x1: 0.8, y1: 0.82, color: [40, 90, 190] },
    { x0: 0.86, y0: 0.38, x1: 0.9, y1: 0.7, color: [240, 190, 60] },
  ].map((s) => ({ x0: s.x0 * width, y0: s.y0 * height, x1: s.x1 * width, y1: s.y1 * height, color: s.color as Rgb }));
  return encodePng(width, height, (x, y) => {
    for (const s of shapes) if (x >= s.x0 && x < s.x1 && y >= s.y0 && y < s.y1) return s.color;
    if (y < horizon) {
      const t = y / horizon;
      return [Math.round(150 + 60 * t), Math.round(190 + 40 * t), 235];
    }
    const lane = Math.abs(y - Math.round(height * 0.72)) < 3 && Math.floor(x / 40) % 2 === 0;
    return lane ? [235, 235, 235] : [95, 98, 104];
  });
}
