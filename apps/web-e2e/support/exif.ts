/**
 * The JPEG with an EXIF APP1 segment right after its SOI marker that holds one tag, Orientation
 * (0x0112), as a camera writes it. Orientation 6 means the stored pixels are shown turned 90° clockwise.
 */
export function withExifOrientation(jpeg: Buffer, orientation: number): Buffer {
  const tiff = Buffer.from([
    0x4d, 0x4d, 0x00, 0x2a, 0x00, 0x00, 0x00, 0x08, // big-endian TIFF header; IFD0 at offset 8
    0x00, 0x01, // one entry
    0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, // Orientation, SHORT, one value
    0x00, orientation, 0x00, 0x00, // the value, padded to four bytes
    0x00, 0x00, 0x00, 0x00, // no next IFD
  ]);
  return withExifSegment(jpeg, tiff);
}

const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const u32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
/** One big-endian IFD entry: tag, type (3 SHORT, 4 LONG, 5 RATIONAL), count 1, value or offset. */
const entry = (tag: number, type: number, value: number[]) => [...u16(tag), ...u16(type), ...u32(1), ...value];

export interface ExifResolution {
  /** EXIF Orientation (6: shown turned 90° clockwise); none when omitted. */
  orientation?: number;
  /** X and Y resolution in dots per inch. */
  dpi: number;
  /** PixelXDimension and PixelYDimension as the file claims them. */
  pixelWidth: number;
  pixelHeight: number;
}

/**
 * The JPEG with an EXIF APP1 segment right after its SOI marker that holds a resolution (XResolution,
 * YResolution, ResolutionUnit inch) and, in the Exif sub-IFD, PixelXDimension and PixelYDimension, and
 * optionally Orientation, as a camera or an editor writes them. Chromium shows such an image at its
 * "density-corrected" size: pixels × 72 / dpi, when the pixel dimensions agree with it.
 */
export function withExifResolution(jpeg: Buffer, { orientation, dpi, pixelWidth, pixelHeight }: ExifResolution): Buffer {
  const count = orientation ? 5 : 4;
  const rationals = 8 + 2 + count * 12 + 4; // after the TIFF header and IFD0
  const exifIfd = rationals + 16;
  const ifd0 = [
    ...u16(count),
    ...(orientation ? entry(0x0112, 3, [0, orientation, 0, 0]) : []),
    ...entry(0x011a, 5, u32(rationals)),
    ...entry(0x011b, 5, u32(rationals + 8)),
    ...entry(0x0128, 3, [0, 2, 0, 0]),
    ...entry(0x8769, 4, u32(exifIfd)),
    ...u32(0),
  ];
  const exif = [...u16(2), ...entry(0xa002, 4, u32(pixelWidth)), ...entry(0xa003, 4, u32(pixelHeight)), ...u32(0)];
  const tiff = Buffer.from([0x4d, 0x4d, 0x00, 0x2a, ...u32(8), ...ifd0, ...u32(dpi), ...u32(1), ...u32(dpi), ...u32(1), ...exif]);
  return withExifSegment(jpeg, tiff);
}

/** The JPEG with an EXIF APP1 segment holding `tiff` (a TIFF header and its IFDs) right after its SOI marker. */
function withExifSegment(jpeg: Buffer, tiff: Buffer): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('not a JPEG: no SOI marker');
  const payload = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const length = payload.length + 2;
  return Buffer.concat([jpeg.subarray(0, 2), Buffer.from([0xff, 0xe1, length >> 8, length & 0xff]), payload, jpeg.subarray(2)]);
}
