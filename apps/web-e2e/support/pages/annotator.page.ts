import type { Locator, Page } from 'playwright-core';
import { expectEventually } from '../expect-eventually';

export interface StageGeometry {
  /** Screen pixels per image pixel. */
  scale: number;
  /** Where the image's top-left corner is, in stage pixels. */
  offsetX: number;
  offsetY: number;
  image: { width: number; height: number };
  /** The stage element's top-left corner, in page pixels. */
  left: number;
  top: number;
}

/** A rect in image pixels. */
export interface ImageRect {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** A box as the API stores it: integer image pixels. */
export interface ImageBox {
  label: string;
  center_x: number;
  center_y: number;
  width: number;
  height: number;
}

export function boxRect(b: ImageBox): ImageRect {
  return { x0: b.center_x - b.width / 2, y0: b.center_y - b.height / 2, x1: b.center_x + b.width / 2, y1: b.center_y + b.height / 2 };
}

/** Whether an API box is within `tolerance` image pixels of a drawn rect, on centre and size. */
export function boxMatches(b: ImageBox, r: ImageRect, tolerance = 1): boolean {
  return (
    Math.abs(b.center_x - (r.x0 + r.x1) / 2) <= tolerance &&
    Math.abs(b.center_y - (r.y0 + r.y1) / 2) <= tolerance &&
    Math.abs(b.width - (r.x1 - r.x0)) <= tolerance &&
    Math.abs(b.height - (r.y1 - r.y0)) <= tolerance
  );
}

function parseImageSize(raw: string | null): { width: number; height: number } | null {
  if (!raw) return null;
  const wxh = /^(\d+)\s*[x×,]\s*(\d+)$/.exec(raw.trim());
  if (wxh) return { width: Number(wxh[1]), height: Number(wxh[2]) };
  try {
    const parsed = JSON.parse(raw) as { width?: number; height?: number };
    return parsed.width && parsed.height ? { width: parsed.width, height: parsed.height } : null;
  } catch {
    return null;
  }
}

/**
 * The annotator as a test sees it, in image-relative coordinates: (0, 0) is the image's top-left
 * corner and (1, 1) its bottom-right, whatever the zoom and pan. Conversions go through the stage's
 * own `data-viewport` and `data-image-size`, so a test acts where the user would.
 */
export class AnnotatorPage {
  readonly root: Locator;
  readonly stage: Locator;
  readonly boxItems: Locator;
  readonly keymap: Locator;
  /** The status that says the box limit (empty below it). */
  readonly boxLimit: Locator;

  constructor(readonly page: Page) {
    this.root = page.getByTestId('annotator');
    this.stage = page.getByTestId('annotator-stage');
    this.boxItems = page.getByTestId('annotator-box-item');
    this.keymap = page.getByTestId('annotator-keymap');
    this.boxLimit = page.getByTestId('annotator-box-limit');
  }

  /** Waits until the image has loaded and the stage reports its viewport. */
  async waitReady(): Promise<StageGeometry> {
    await this.stage.waitFor({ state: 'visible' });
    let geometry: StageGeometry | null = null;
    await expectEventually(async () => {
      geometry = await this.readGeometry();
      return geometry !== null;
    }, 'the annotator to load its image');
    return geometry as unknown as StageGeometry;
  }

  private async readGeometry(): Promise<StageGeometry | null> {
    const [viewportRaw, sizeRaw, rect] = await Promise.all([
      this.stage.getAttribute('data-viewport'),
      this.stage.getAttribute('data-image-size'),
      this.stage.boundingBox(),
    ]);
    const image = parseImageSize(sizeRaw);
    if (!viewportRaw || !image || !rect) return null;
    const v = JSON.parse(viewportRaw) as { scale: number; x?: number; y?: number; offsetX?: number; offsetY?: number };
    if (!(v.scale > 0)) return null;
    return { scale: v.scale, offsetX: v.x ?? v.offsetX ?? 0, offsetY: v.y ?? v.offsetY ?? 0, image, left: rect.x, top: rect.y };
  }

  async geometry(): Promise<StageGeometry> {
    const geometry = await this.readGeometry();
    if (!geometry) throw new Error('the annotator stage has no viewport yet');
    return geometry;
  }

  /**
   * The page point of an image-relative point, rounded to a whole CSS pixel: that is where a mouse
   * event really lands, so expectations are computed from this point (pageToImage), not from the fractions.
   */
  async toPage(fx: number, fy: number): Promise<{ x: number; y: number }> {
    const g = await this.geometry();
    return { x: Math.round(g.left + g.offsetX + fx * g.image.width * g.scale), y: Math.round(g.top + g.offsetY + fy * g.image.height * g.scale) };
  }

  /** A page point in image pixels (the inverse of the stage transform). */
  async pageToImage(p: { x: number; y: number }): Promise<{ x: number; y: number }> {
    const g = await this.geometry();
    return { x: (p.x - g.left - g.offsetX) / g.scale, y: (p.y - g.top - g.offsetY) / g.scale };
  }

  /** Whether an image-relative point is on the visible part of the stage. */
  async isVisible(fx: number, fy: number): Promise<boolean> {
    const g = await this.geometry();
    const rect = await this.stage.boundingBox();
    const p = await this.toPage(fx, fy);
    return !!rect && p.x > rect.x && p.x < rect.x + rect.width && p.y > rect.y && p.y < rect.y + rect.height && g.scale > 0;
  }

  /** Drags with the mouse from (x0, y0) to (x1, y1); returns the rect in image pixels that the drag covered. */
  async drawBox(x0: number, y0: number, x1: number, y1: number): Promise<ImageRect> {
    const before = await this.boxItems.count();
    const { from, to } = await this.drag(x0, y0, x1, y1);
    await this.expectBoxes(before + 1);
    const a = await this.pageToImage(from);
    const b = await this.pageToImage(to);
    return { x0: Math.min(a.x, b.x), y0: Math.min(a.y, b.y), x1: Math.max(a.x, b.x), y1: Math.max(a.y, b.y) };
  }

  /** A mouse drag between two image-relative points, in small steps as a hand would; returns the page points used. */
  async drag(x0: number, y0: number, x1: number, y1: number): Promise<{ from: { x: number; y: number }; to: { x: number; y: number } }> {
    return this.dragPage(await this.toPage(x0, y0), await this.toPage(x1, y1));
  }

  async dragPage(from: { x: number; y: number }, to: { x: number; y: number }): Promise<{ from: { x: number; y: number }; to: { x: number; y: number } }> {
    await this.page.mouse.move(from.x, from.y);
    await this.page.mouse.down();
    await this.page.mouse.move(Math.round((from.x + to.x) / 2), Math.round((from.y + to.y) / 2), { steps: 4 });
    await this.page.mouse.move(to.x, to.y, { steps: 4 });
    await this.page.mouse.up();
    return { from, to };
  }

  /**
   * Drags the bottom-right resize handle of the selected box (which must be `box`) by whole page
   * pixels towards the image-relative point (fx, fy). Returns the box's expected edges afterwards:
   * the handle moves by exactly the pointer's delta, whatever the zoom.
   */
  async resizeBottomRight(box: ImageBox, fx: number, fy: number): Promise<ImageRect> {
    const g = await this.geometry();
    const rect = boxRect(box);
    // The handle sits on the corner; press on the nearest whole pixel and move by whole pixels.
    const corner = { x: g.left + g.offsetX + rect.x1 * g.scale, y: g.top + g.offsetY + rect.y1 * g.scale };
    const from = { x: Math.round(corner.x), y: Math.round(corner.y) };
    const to = await this.toPage(fx, fy);
    await this.dragPage(from, to);
    return { x0: rect.x0, y0: rect.y0, x1: rect.x1 + (to.x - from.x) / g.scale, y1: rect.y1 + (to.y - from.y) / g.scale };
  }

  /** A click at an image-relative point. */
  async clickAt(fx: number, fy: number): Promise<void> {
    const p = await this.toPage(fx, fy);
    await this.page.mouse.click(p.x, p.y);
  }

  /** Wheel over an image-relative point (negative deltaY zooms in); waits until the scale changed. */
  async wheelZoom(fx: number, fy: number, deltaY: number): Promise<number> {
    const before = (await this.geometry()).scale;
    const p = await this.toPage(fx, fy);
    await this.page.mouse.move(p.x, p.y);
    await this.page.mouse.wheel(0, deltaY);
    let after = before;
    await expectEventually(async () => {
      after = (await this.geometry()).scale;
      return after !== before;
    }, 'the wheel to change the zoom');
    return after;
  }

  async expectBoxes(n: number): Promise<void> {
    await expectEventually(async () => (await this.boxItems.count()) === n, `${n} boxes in the box list`, async () => `${await this.boxItems.count()} boxes`);
  }

  /** Selects the i-th box through the box list. */
  async selectBox(index: number): Promise<void> {
    await this.boxItems.nth(index).click();
  }

  /** The boxes as the box list shows them (label, and "cx,cy w×h" in image pixels). */
  async boxes(): Promise<ImageBox[]> {
    const items = await this.boxItems.all();
    return Promise.all(
      items.map(async (item) => {
        const label = (await item.getAttribute('data-label')) ?? '';
        const m = /(-?\d+),(-?\d+)\s+(\d+)\s*×\s*(\d+)/.exec(await item.innerText());
        if (!m) throw new Error(`cannot read a box from the box list item "${await item.innerText()}"`);
        return { label, center_x: Number(m[1]), center_y: Number(m[2]), width: Number(m[3]), height: Number(m[4]) };
      }),
    );
  }

  /** A key press with focus on the stage. */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }
}
