import type { Locator, Page } from 'playwright-core';

/** /work/history — the worker's own submissions, newest first, with "Load older" below. */
export class WorkHistoryPage {
  readonly rows: Locator;
  readonly empty: Locator;
  readonly older: Locator;
  readonly end: Locator;
  readonly announcer: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId('history-row');
    this.empty = page.getByTestId('history-empty');
    this.older = page.getByRole('button', { name: 'Load older' });
    this.end = page.getByTestId('history-end');
    this.announcer = page.getByTestId('history-announcer');
  }

  async goto(): Promise<this> {
    await this.page.goto('/work/history');
    await this.waitFor();
    return this;
  }

  async waitFor(): Promise<void> {
    await this.page.getByRole('heading', { name: 'History' }).waitFor();
  }

  /** Each row as shown: project, boxes, reward, and the moment in its <time> (ISO) and as written. */
  async shown(): Promise<Array<{ project: string; boxes: string; reward: string; iso: string | null; text: string }>> {
    const out = [];
    for (const row of await this.rows.all()) {
      const time = row.locator('time');
      out.push({
        project: await row.getByTestId('history-project').innerText(),
        boxes: await row.getByTestId('history-boxes').innerText(),
        reward: await row.getByTestId('history-reward').innerText(),
        iso: await time.getAttribute('datetime'),
        text: await time.innerText(),
      });
    }
    return out;
  }
}
