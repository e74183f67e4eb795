import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

export type Rgb = [number, number, number];

/** A truecolour PNG from a pixel function; enough for test images without any dependency. */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => Rgb): Buffer {
  const raw = Buffer.alloc((width * 3 + 1) * height);
  let i = 0;
  for (let y = 0; y < height; y++) {
    raw[i++] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const [r, g, b] = pixel(x, y);
      raw[i++] = r;
      raw[i++] = g;
      raw[i++] = b;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

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
