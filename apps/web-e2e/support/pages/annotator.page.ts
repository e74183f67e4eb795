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

  constructor(readonly page: Page) {
    this.root = page.getByTestId('annotator');
    this.stage = page.getByTestId('annotator-stage');
    this.boxItems = page.getByTestId('annotator-box-item');
    this.keymap = page.getByTestId('annotator-keymap');
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

  /** The page point of an image-relative point. */
  async toPage(fx: number, fy: number): Promise<{ x: number; y: number }> {
    const g = await this.geometry();
    return { x: g.left + g.offsetX + fx * g.image.width * g.scale, y: g.top + g.offsetY + fy * g.image.height * g.scale };
  }

  /** Image-relative point → image pixels. */
  async toImage(fx: number, fy: number): Promise<{ x: number; y: number }> {
    const g = await this.geometry();
    return { x: fx * g.image.width, y: fy * g.image.height };
  }

  /** Drags with the mouse from (x0, y0) to (x1, y1); returns the rect in image pixels that the drag covered. */
  async drawBox(x0: number, y0: number, x1: number, y1: number): Promise<ImageRect> {
    const before = await this.boxItems.count();
    await this.drag(x0, y0, x1, y1);
    await this.expectBoxes(before + 1);
    const a = await this.toImage(x0, y0);
    const b = await this.toImage(x1, y1);
    return { x0: Math.min(a.x, b.x), y0: Math.min(a.y, b.y), x1: Math.max(a.x, b.x), y1: Math.max(a.y, b.y) };
  }

  /** A mouse drag between two image-relative points, in small steps as a hand would. */
  async drag(x0: number, y0: number, x1: number, y1: number): Promise<void> {
    const from = await this.toPage(x0, y0);
    const to = await this.toPage(x1, y1);
    await this.page.mouse.move(from.x, from.y);
    await this.page.mouse.down();
    await this.page.mouse.move((from.x + to.x) / 2, (from.y + to.y) / 2, { steps: 4 });
    await this.page.mouse.move(to.x, to.y, { steps: 4 });
    await this.page.mouse.up();
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

  /** The texts of the box list, one per box. */
  async boxTexts(): Promise<string[]> {
    return this.boxItems.allInnerTexts();
  }

  /** A key press with focus on the stage. */
  async press(key: string): Promise<void> {
    await this.page.keyboard.press(key);
  }
}
