import type { CDPSession, Page } from 'playwright-core';

type Point = { x: number; y: number };

/**
 * Fingers on the page, through Chromium's own touch input (CDP Input.dispatchTouchEvent): the browser
 * turns them into touch and pointer events as it would for a real screen. Playwright's touchscreen
 * only taps, with one finger. The page's context needs `hasTouch`.
 */
export class Fingers {
  private constructor(private readonly cdp: CDPSession) {}

  static async on(page: Page): Promise<Fingers> {
    return new Fingers(await page.context().newCDPSession(page));
  }

  /** One touch event: the fingers now on the screen, by id (`touchEnd` with none lifts them all). */
  async send(type: 'touchStart' | 'touchMove' | 'touchEnd', fingers: Array<Point & { id: number }>): Promise<void> {
    await this.cdp.send('Input.dispatchTouchEvent', { type, touchPoints: fingers });
  }

  /** Fingers go down at `points` together, move in `steps` straight to `to` (one point each), and lift. */
  async gesture(points: Point[], to: Point[], steps = 8): Promise<void> {
    const at = (k: number) => points.map((p, i) => ({ x: p.x + ((to[i].x - p.x) * k) / steps, y: p.y + ((to[i].y - p.y) * k) / steps, id: i }));
    await this.cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) });
    for (let k = 1; k <= steps; k++) {
      await this.cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(k) });
      // One move per frame or so, as a hand would: the annotator applies a pinch once per animation frame.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await this.cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }
}
