import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expectEventually } from '../../support/expect-eventually';
import { SCREENSHOT_DIR } from '../../support/harness';
import { AnnotatorPage, type ImageBox } from '../../support/pages/annotator.page';

/** Page objects of the requester console: each names what a requester sees and does, not how it is built. */

export class ProjectFormPage {
  readonly preview: Locator;
  readonly estimate: Locator;

  constructor(readonly page: Page) {
    this.preview = page.getByTestId('template-preview');
    this.estimate = page.getByTestId('cost-estimate');
  }

  field(label: string | RegExp): Locator {
    return this.page.getByLabel(label, { exact: typeof label === 'string' });
  }

  async fillAbout(values: { name: string; displayName: string; description: string }): Promise<void> {
    await this.field('Name').fill(values.name);
    await this.field('Display name').fill(values.displayName);
    await this.field('Short description').fill(values.description);
  }

  variableRow(name: string): Locator {
    return this.page.getByTestId(`variable-${name}`);
  }

  async setDefault(variable: string, value: string): Promise<void> {
    await this.page.getByLabel(`Default for ${variable}`, { exact: true }).fill(value);
  }

  async setSample(variable: string, value: string): Promise<void> {
    await this.page.getByLabel(`Sample value of ${variable} for the preview`, { exact: true }).fill(value);
  }

  /** Waits until the worker preview shows `text` (the preview follows every keystroke). */
  async expectPreview(text: string | RegExp): Promise<void> {
    await expectEventually(
      async () => {
        const shown = await this.preview.innerText();
        return typeof text === 'string' ? shown.includes(text) : text.test(shown);
      },
      `the preview to show ${text}`,
      () => this.preview.innerText(),
    );
  }

  async setLabel(index: number, name: string, color: string): Promise<void> {
    const labels = this.page.getByTestId('labels-editor');
    if ((await labels.locator('li').count()) <= index) await this.page.getByRole('button', { name: 'Add label' }).click();
    await this.page.getByLabel(`Name of label ${index + 1}`, { exact: true }).fill(name);
    await this.page.getByLabel(`Colour of label ${index + 1}`, { exact: true }).fill(color);
  }

  /** The API's error shown under a field, by the field's label. */
  async fieldError(label: string): Promise<string> {
    const error = this.page.locator('.field', { has: this.field(label) }).locator('.field-error');
    return (await error.count()) > 0 ? error.innerText() : '';
  }

  async create(): Promise<void> {
    await this.page.getByRole('button', { name: 'Create project' }).click();
  }
}

export class ProjectOverviewPage {
  /** "N outstanding tasks reported by workers", a link to them; absent when none is. */
  readonly reportedTasks: Locator;

  constructor(readonly page: Page) {
    this.reportedTasks = page.getByTestId('reported-tasks');
  }

  async open(projectUuid: string): Promise<void> {
    await this.page.goto(`/console/projects/${projectUuid}`);
    await this.page.getByTestId('progress-stats').waitFor();
  }

  stat(name: 'total' | 'complete' | 'outstanding' | 'cancelled' | 'submissions' | 'paid' | 'committed'): Locator {
    return this.page.getByTestId(`stat-${name}`).locator('dd');
  }

  async stats(): Promise<Record<string, string>> {
    const names = ['total', 'complete', 'outstanding', 'cancelled', 'submissions', 'paid', 'committed'] as const;
    const values = await Promise.all(names.map((n) => this.stat(n).innerText()));
    return Object.fromEntries(names.map((n, i) => [n, values[i]]));
  }

  get cancelDialog(): Locator {
    return this.page.getByRole('dialog');
  }

  async openCancelDialog(): Promise<string> {
    await this.page.getByTestId('cancel-outstanding').click();
    await this.cancelDialog.waitFor();
    return this.page.getByTestId('cancel-summary').innerText();
  }

  async confirmCancel(): Promise<string> {
    await this.cancelDialog.getByRole('button', { name: /^Cancel \d+ tasks?$/ }).click();
    await this.page.getByTestId('cancel-result').waitFor();
    return this.page.getByTestId('cancel-result').innerText();
  }
}

export class TaskListPage {
  readonly rows: Locator;
  /** The "Reported by workers" checkbox beside the state menu. */
  readonly reportedFilter: Locator;
  /** "Tasks worker_… submitted to" above the list, with its Show all workers' tasks; absent without a worker filter. */
  readonly workerFilter: Locator;
  /** What the page says instead of the list when the API refuses the worker's name in the address. */
  readonly workerRefused: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId('task-row');
    this.reportedFilter = page.getByLabel('Reported by workers', { exact: true });
    this.workerFilter = page.getByTestId('worker-filter');
    this.workerRefused = page.getByTestId('worker-refused');
  }

  /** Removes the worker filter (from above the list, or from the refusal of a name): every worker's tasks. */
  async showAllWorkers(): Promise<void> {
    await this.page.getByRole('button', { name: 'Show all workers’ tasks' }).click();
  }

  /** Waits until the list holds exactly these tasks, in any order (the list read again after a filter changes). */
  async waitForTasks(taskUuids: string[]): Promise<void> {
    const want = JSON.stringify([...taskUuids].sort());
    let seen: string[] = [];
    await expectEventually(
      async () => JSON.stringify((seen = await this.uuids()).sort()) === want,
      `the list to hold ${want}`,
      async () => JSON.stringify(seen),
    );
  }

  async open(projectUuid: string, state?: 'incomplete' | 'complete' | 'cancelled'): Promise<void> {
    await this.page.goto(`/console/projects/${projectUuid}/tasks${state ? `?state=${state}` : ''}`);
    await this.page.getByTestId('task-filter').waitFor();
  }

  row(taskUuid: string): Locator {
    return this.page.locator(`[data-testid="task-row"][data-task-uuid="${taskUuid}"]`);
  }

  async filter(label: 'All tasks' | 'Outstanding' | 'Complete' | 'Cancelled'): Promise<void> {
    await this.page.getByTestId('task-filter').selectOption({ label });
  }

  /**
   * Ticks or unticks "Reported by workers". The box shows the address, which the router updates in a
   * transition, so it changes a moment after the click: Playwright's check() looks at once and called
   * that a failed click on a loaded machine. This clicks, then waits for the box to show it.
   */
  async showReported(on: boolean): Promise<void> {
    if ((await this.reportedFilter.isChecked()) !== on) await this.reportedFilter.click();
    await expectEventually(async () => (await this.reportedFilter.isChecked()) === on, `"Reported by workers" ${on ? 'ticked' : 'unticked'}`);
  }

  /** What the row says of the workers' problem reports: "⚠ 2 problem reports", or "" when none. */
  async problemReports(taskUuid: string): Promise<string> {
    const reports = this.row(taskUuid).getByTestId('task-problem-reports');
    return (await reports.count()) ? reports.innerText() : '';
  }

  /** The table's caption: which tasks it lists, and the page (empty when there is no table). */
  async caption(): Promise<string> {
    const caption = this.page.getByTestId('task-table').locator('caption');
    return (await caption.count()) ? ((await caption.textContent()) ?? '') : '';
  }

  async uuids(): Promise<string[]> {
    await this.page.getByTestId('task-table').or(this.page.locator('.cbc-empty')).first().waitFor();
    return this.rows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-task-uuid') ?? ''));
  }
}

export class TaskDetailPage {
  readonly annotator: AnnotatorPage;
  readonly consensusRows: Locator;
  readonly workerToggles: Locator;
  /** The "Problems reported by workers" section, found by its heading as a screen reader would. */
  readonly problems: Locator;

  constructor(readonly page: Page) {
    this.annotator = new AnnotatorPage(page);
    this.consensusRows = page.getByTestId('consensus-row');
    this.workerToggles = page.getByTestId('worker-toggle');
    this.problems = page.getByRole('region', { name: 'Problems reported by workers' });
  }

  async open(projectUuid: string, taskUuid: string): Promise<void> {
    await this.page.goto(`/console/projects/${projectUuid}/tasks/${taskUuid}`);
    await this.problems.waitFor();
  }

  /** "Cancel this task", offered for an outstanding task only. */
  get cancelButton(): Locator {
    return this.page.getByRole('button', { name: 'Cancel this task' });
  }

  get cancelDialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Cancel this task?' });
  }

  /** The task's state as its badge under Task reads ("outstanding", "complete", "cancelled"). */
  state(): Promise<string> {
    return this.page.locator('.cbc-facts dt', { hasText: /^State$/ }).locator('xpath=following-sibling::dd[1]').innerText();
  }

  /** Opens the cancel dialog: its cost sentence and the problems it names (one string each). */
  async openCancelDialog(): Promise<{ summary: string; problems: string[] }> {
    await this.cancelButton.click();
    await this.cancelDialog.waitFor();
    return {
      summary: await this.page.getByTestId('cancel-task-summary').innerText(),
      problems: await this.cancelDialog.getByTestId('cancel-task-problems').locator('li').allInnerTexts(),
    };
  }

  /** Confirms the cancel; the result the page then shows. */
  async confirmCancel(): Promise<string> {
    await this.cancelDialog.getByRole('button', { name: 'Cancel the task' }).click();
    const result = this.page.getByTestId('cancel-task-result');
    await result.waitFor();
    return result.innerText();
  }

  /** The "Block a worker" section, found by its heading; it lists the workers whose boxes the task shows. */
  get blockSection(): Locator {
    return this.page.getByRole('region', { name: 'Block a worker' });
  }

  /** Opens the block dialog for `worker` (its pseudonym) and returns what the dialog says. */
  async openBlockDialog(worker: string): Promise<string> {
    await this.blockSection.getByRole('button', { name: `Block ${worker}…` }).click();
    const dialog = this.page.getByRole('dialog', { name: `Block ${worker}?` });
    await dialog.waitFor();
    return dialog.getByTestId('block-worker-summary').innerText();
  }

  /** Confirms the block; the result the page then shows. */
  async confirmBlock(worker: string): Promise<string> {
    await this.page.getByRole('dialog', { name: `Block ${worker}?` }).getByRole('button', { name: 'Block worker' }).click();
    const result = this.page.getByTestId('block-worker-result');
    await result.waitFor();
    return result.innerText();
  }

  /** Each reported problem as its row reads: the words, the count, and the exact time its <time> holds. */
  async problemRows(): Promise<Array<{ problem: string; count: string; lastReportedAt: string | null }>> {
    return this.problems.getByTestId('problem-row').evaluateAll((rows) =>
      rows.map((row) => {
        const cells = row.querySelectorAll('td');
        return { problem: cells[0].innerText, count: cells[1].innerText, lastReportedAt: cells[2].querySelector('time')?.getAttribute('datetime') ?? null };
      }),
    );
  }

  /**
   * Whether the stage's canvas shows `color` on the box's left edge, half-way down: the box is really
   * drawn where the image says, whatever the zoom. Reads the pixels of the layers above the image.
   */
  async boxDrawnIn(box: ImageBox, color: string): Promise<boolean> {
    const g = await this.annotator.waitReady();
    const left = await this.annotator.toPage((box.center_x - box.width / 2) / g.image.width, box.center_y / g.image.height);
    const rgb = [1, 3, 5].map((i) => parseInt(color.slice(i, i + 2), 16));
    return this.page.getByTestId('annotator-stage').evaluate(
      (stage, { x, y, rgb }) => {
        // Konva gives each layer a canvas, the image's first: skip it, so only drawn boxes count.
        for (const canvas of Array.from(stage.querySelectorAll('canvas')).slice(1)) {
          const rect = canvas.getBoundingClientRect();
          const ratio = canvas.width / rect.width;
          const ctx = canvas.getContext('2d');
          if (!ctx) continue;
          let px: Uint8ClampedArray;
          try {
            // A 7x7 pixel window around the edge point: strokes are thin and anti-aliased.
            px = ctx.getImageData(Math.round((x - rect.left - 3) * ratio), Math.round((y - rect.top - 3) * ratio), Math.ceil(7 * ratio), Math.ceil(7 * ratio)).data;
          } catch {
            continue; // a layer tainted by a cross-origin image: not the boxes' layer
          }
          for (let i = 0; i < px.length; i += 4) {
            // Not only opaque pixels: a 1.5 px stroke astride a pixel boundary covers none fully (~190 at most).
            if (px[i + 3] > 120 && Math.abs(px[i] - rgb[0]) < 40 && Math.abs(px[i + 1] - rgb[1]) < 40 && Math.abs(px[i + 2] - rgb[2]) < 40) return true;
          }
        }
        return false;
      },
      { x: left.x, y: left.y, rgb },
    );
  }
}

export class ApiKeysPage {
  readonly rows: Locator;
  readonly firstCall: Locator;
  /** The secrets made during this visit, newest first, each in its own box with a copy button. */
  readonly newKeys: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId('key-row');
    this.firstCall = page.getByTestId('first-call');
    this.newKeys = page.getByTestId('new-key');
  }

  /** Opens the page and waits for its list: the keys, or the card that says there are none. */
  async open(): Promise<void> {
    await this.page.goto('/console/keys');
    await this.page.getByRole('heading', { name: 'API keys', level: 1 }).waitFor();
    await this.page.locator('[data-testid="key-row"], .cbc-empty').first().waitFor();
  }

  /**
   * Creates a key and returns the secret, which the page shows this once. The secret shows as soon as
   * the key is made and the list reloads after it, so this waits for the list to have one more row:
   * callers then read a settled table (counting at once raced the reload).
   */
  async create(mode: 'live' | 'test'): Promise<string> {
    const before = await this.rows.count();
    const shown = await this.newKeys.count();
    await this.page.getByTestId(`create-${mode}-key`).click();
    await this.newKeys.nth(shown).waitFor();
    await this.rows.nth(before).waitFor();
    return this.newKeys.first().getByTestId('new-key-secret').innerText();
  }
}

/** /console/workers: the workers the account blocked, each with an Unblock. */
export class BlockedWorkersPage {
  readonly rows: Locator;
  readonly empty: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId('blocked-worker-row');
    this.empty = page.getByTestId('blocked-workers-empty');
  }

  /** Opens the page through the console's navigation, as a requester does, and waits for its list. */
  async openFromNav(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Blocked workers' }).click();
    await this.waitForList();
  }

  /** Waits for the list: its rows, or the card that says there are none. */
  async waitForList(): Promise<void> {
    await this.page.getByRole('heading', { name: 'Blocked workers', level: 1 }).waitFor();
    await this.rows.or(this.empty).first().waitFor();
  }

  /** Each row as it reads: worker, project, blocked at (cells joined by " | "). */
  async rowTexts(): Promise<string[]> {
    return this.rows.evaluateAll((rows) => rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => td.innerText.trim()).filter(Boolean).join(' | ')));
  }

  /** Unblocks `worker`; the status the page then shows. */
  async unblock(worker: string): Promise<string> {
    await this.page.getByRole('button', { name: `Unblock ${worker}` }).click();
    const status = this.page.getByTestId('worker-unblocked');
    await status.waitFor();
    return status.innerText();
  }
}

/** /console/projects/:uuid/workers: how each worker agrees with the others, lowest first, each with Block worker… or "blocked". */
export class ProjectWorkersPage {
  readonly rows: Locator;
  readonly empty: Locator;
  readonly about: Locator;

  constructor(readonly page: Page) {
    this.rows = page.getByTestId('project-worker-row');
    this.empty = page.getByTestId('project-workers-empty');
    this.about = page.getByTestId('project-workers-about');
  }

  /** Opens the page through the project's tabs, as a requester does from the project's page, and waits for its list. */
  async openFromProject(): Promise<void> {
    await this.page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'Workers' }).click();
    await this.waitForList();
  }

  /** Waits for the list: its rows, or the card that says no task is complete yet. */
  async waitForList(): Promise<void> {
    await this.page.getByRole('heading', { name: 'Workers', level: 2 }).waitFor();
    await this.rows.or(this.empty).first().waitFor();
  }

  /** Each row as its cells read, by the column headers' names. */
  async rowTexts(): Promise<Array<Record<string, string>>> {
    return this.page.getByTestId('project-workers-table').evaluate((table) => {
      const names = Array.from(table.querySelectorAll('thead th')).map((th) => (th as HTMLElement).innerText.trim() || 'Block');
      return Array.from(table.querySelectorAll('tbody tr')).map((tr) =>
        Object.fromEntries(Array.from(tr.querySelectorAll('td')).map((td, i) => [names[i], (td as HTMLElement).innerText.trim()])),
      );
    });
  }

  /** Follows `worker`'s name to the project's tasks they submitted to. */
  async openTasksOf(worker: string): Promise<void> {
    await this.rows.getByRole('link', { name: `${worker}: their tasks` }).click();
    await this.page.getByTestId('task-filter').waitFor();
  }

  /** Opens the block dialog from `worker`'s row and confirms it; the result the page then shows. */
  async block(worker: string): Promise<string> {
    await this.rows.filter({ hasText: worker }).getByRole('button', { name: `Block ${worker}…` }).click();
    const dialog = this.page.getByRole('dialog', { name: `Block ${worker}?` });
    await dialog.getByRole('button', { name: 'Block worker' }).click();
    const result = this.page.getByTestId('block-worker-result');
    await result.waitFor();
    return result.innerText();
  }
}

export class WebhooksPage {
  readonly endpoints: Locator;
  readonly events: Locator;

  constructor(readonly page: Page) {
    this.endpoints = page.getByTestId('endpoint-row');
    this.events = page.getByTestId('event-row');
  }

  async open(): Promise<void> {
    await this.page.goto('/console/webhooks');
    await this.page.getByRole('heading', { name: 'Event log' }).waitFor();
  }

  /** Refreshes the log until an event in `state` is listed (the page also polls while events are pending). */
  async waitForEvent(state: 'pending' | 'delivered' | 'failed', count = 1): Promise<Locator> {
    const matching = this.page.locator(`[data-testid="event-row"][data-event-state="${state}"]`);
    await expectEventually(
      async () => {
        if ((await matching.count()) >= count) return true;
        await this.page.getByTestId('refresh-events').click();
        await this.page.waitForTimeout(300);
        return false;
      },
      `${count} ${state} webhook event(s) in the log`,
      async () => (await this.events.allInnerTexts()).join(' | ') || 'no events',
      20_000,
    );
    return matching.first();
  }
}

/**
 * Presses Tab until the focused element's accessible text matches `name` (at most `limit` times): the
 * control can be reached from the keyboard, in the page's order.
 */
export async function tabTo(page: Page, name: RegExp, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? `${el.getAttribute('aria-label') ?? ''} ${el.innerText ?? ''}`.trim() : '';
    });
    if (name.test(text)) return;
  }
  throw new Error(`${name} was not reached with ${limit} presses of Tab`);
}

/** <SCREENSHOT_DIR>/console-<name>.png of the whole page, from the top (console pages are taller than 800 px). */
export async function consoleScreenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOT_DIR, `console-${name}.png`), fullPage: true, animations: 'disabled' });
}
