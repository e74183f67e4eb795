import type { Rect } from './box.types';

// Math's functions are read once, as in iou.util.ts (a global lookup is slow in Jest's sandbox).
const { ceil, floor, max, min, sqrt } = Math;

/** A rect covering more cells than this is kept in one list that every query checks, not in its cells. */
const WIDE_CELLS = 16;

/**
 * A uniform grid over a known set of rects, to find among those inserted so far the ones that share
 * area with a given rect without testing each of them (the consensus's candidate clusters).
 *
 * The grid spans the bounding box of the rects it was fitted to, with cells about the size of their
 * median width and height, and at most about four cells per rect. A rect is listed in every cell it
 * touches; a query looks only at the cells its own rect touches. Two rects that share area have a
 * point in common, and that point's cell is touched by both: the cell of a coordinate is computed by a
 * non-decreasing function of it (correctly rounded subtraction and multiplication, floor, clamp), so a
 * point inside a rect never falls in a cell outside the rect's own range. A rect or query spanning
 * more than WIDE_CELLS cells is not split into cells: such rects sit in one list every query tests,
 * and such a query tests every rect, which bounds the work by the number of rects either way.
 *
 * Edges may be infinite (a rect with one makes the grid a single cell) but not NaN. A rect without
 * area (zero or negative width or height) shares area with nothing: inserting it adds nothing, and a
 * query with it finds nothing.
 */
export class RectGrid {
  private readonly x0: Float64Array;
  private readonly y0: Float64Array;
  private readonly x1: Float64Array;
  private readonly y1: Float64Array;
  /** Per id, the number of the last query that saw it, so a rect in several cells is visited once. */
  private readonly seen: Uint32Array;
  private query = 0;
  private readonly cells: Array<number[] | undefined>;
  private readonly wide: number[] = [];
  private readonly all: number[] = [];
  private readonly columns: number;
  private readonly rows: number;
  private readonly originX: number;
  private readonly originY: number;
  private readonly perX: number;
  private readonly perY: number;

  /** A grid sized for `rects`, accepting ids 0 .. capacity - 1 (default: one per rect). */
  constructor(rects: readonly Rect[], capacity = rects.length) {
    this.x0 = new Float64Array(capacity);
    this.y0 = new Float64Array(capacity);
    this.x1 = new Float64Array(capacity);
    this.y1 = new Float64Array(capacity);
    this.seen = new Uint32Array(capacity);

    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    const widths: number[] = [];
    const heights: number[] = [];
    for (const r of rects) {
      if (!(r.x1 > r.x0 && r.y1 > r.y0)) continue;
      minX = min(minX, r.x0);
      minY = min(minY, r.y0);
      maxX = max(maxX, r.x1);
      maxY = max(maxY, r.y1);
      widths.push(r.x1 - r.x0);
      heights.push(r.y1 - r.y0);
    }
    const spanX = maxX - minX;
    const spanY = maxY - minY;
    const maxCells = 4 * widths.length + 16;
    let columns = 1;
    let rows = 1;
    if (spanX > 0 && spanY > 0 && spanX < Infinity && spanY < Infinity) {
      columns = min(maxCells, max(1, ceil(spanX / middle(widths))));
      rows = min(maxCells, max(1, ceil(spanY / middle(heights))));
      if (columns * rows > maxCells) {
        const shrink = sqrt((columns * rows) / maxCells);
        columns = max(1, floor(columns / shrink));
        rows = max(1, floor(rows / shrink));
        while (columns * rows > maxCells) {
          if (columns > rows) columns--;
          else rows--;
        }
      }
    }
    const perX = columns / spanX;
    const perY = rows / spanY;
    // Without area, with an infinite edge, or with spans too small for a finite scale: one cell holds everything.
    const scaled = Number.isFinite(perX) && Number.isFinite(perY) && perX > 0 && perY > 0;
    this.columns = scaled ? columns : 1;
    this.rows = scaled ? rows : 1;
    this.originX = scaled ? minX : 0;
    this.originY = scaled ? minY : 0;
    this.perX = scaled ? perX : 0;
    this.perY = scaled ? perY : 0;
    this.cells = new Array<number[] | undefined>(this.columns * this.rows);
  }

  /** Adds `rect` under `id` (0 .. capacity - 1); one without area is left out, as it shares area with nothing. */
  insert(id: number, rect: Rect): void {
    if (!(rect.x1 > rect.x0 && rect.y1 > rect.y0)) return;
    this.x0[id] = rect.x0;
    this.y0[id] = rect.y0;
    this.x1[id] = rect.x1;
    this.y1[id] = rect.y1;
    this.all.push(id);
    const c0 = this.column(rect.x0);
    const c1 = this.column(rect.x1);
    const r0 = this.row(rect.y0);
    const r1 = this.row(rect.y1);
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > WIDE_CELLS) {
      this.wide.push(id);
      return;
    }
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const index = r * this.columns + c;
        const cell = this.cells[index];
        if (cell) cell.push(id);
        else this.cells[index] = [id];
      }
    }
  }

  /** How many inserted rects `overlapping(rect)` would test: the cost of asking, to weigh against a scan. */
  nearby(rect: Rect): number {
    const c0 = this.column(rect.x0);
    const c1 = this.column(rect.x1);
    const r0 = this.row(rect.y0);
    const r1 = this.row(rect.y1);
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > WIDE_CELLS) return this.all.length;
    let count = this.wide.length;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) count += this.cells[r * this.columns + c]?.length ?? 0;
    }
    return count;
  }

  /** Pushes onto `out`, once each, the ids of the inserted rects that share area with `rect` (in no particular order). */
  overlapping(rect: Rect, out: number[]): void {
    if (!(rect.x1 > rect.x0 && rect.y1 > rect.y0)) return;
    const c0 = this.column(rect.x0);
    const c1 = this.column(rect.x1);
    const r0 = this.row(rect.y0);
    const r1 = this.row(rect.y1);
    if ((c1 - c0 + 1) * (r1 - r0 + 1) > WIDE_CELLS) {
      this.test(this.all, rect, out, false);
      return;
    }
    this.query++;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = this.cells[r * this.columns + c];
        if (cell) this.test(cell, rect, out, true);
      }
    }
    this.test(this.wide, rect, out, false);
  }

  private test(ids: readonly number[], rect: Rect, out: number[], dedupe: boolean): void {
    const { x0, y0, x1, y1 } = rect;
    for (const id of ids) {
      // Strict: rects that only touch share no area (rectIou gives them 0).
      if (!(x0 < this.x1[id] && this.x0[id] < x1 && y0 < this.y1[id] && this.y0[id] < y1)) continue;
      if (dedupe) {
        if (this.seen[id] === this.query) continue;
        this.seen[id] = this.query;
      }
      out.push(id);
    }
  }

  // Non-decreasing in x; an infinite edge in a grid of one cell (scale 0, so NaN here) is in that cell.
  private column(x: number): number {
    const column = floor((x - this.originX) * this.perX);
    return column > 0 ? min(this.columns - 1, column) : 0;
  }

  private row(y: number): number {
    const row = floor((y - this.originY) * this.perY);
    return row > 0 ? min(this.rows - 1, row) : 0;
  }
}

/** The median of positive sizes (upper middle for an even count: only a cell size, not a result). */
function middle(sizes: number[]): number {
  const sorted = Float64Array.from(sizes).sort();
  return sorted[sorted.length >> 1];
}
