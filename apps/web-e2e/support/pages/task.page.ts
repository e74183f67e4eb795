import type { Locator, Page } from 'playwright-core';
import { AnnotatorPage, type ImageBox } from './annotator.page';

/** /work/:projectUuid — one leased task: the annotator, the prompt, the countdown, Submit, Skip and Report a problem. */
export class TaskPage {
  readonly workspace: Locator;
  readonly prompt: Locator;
  readonly countdown: Locator;
  readonly submitButton: Locator;
  readonly skipButton: Locator;
  readonly reportProblemButton: Locator;
  /** In the failed image's message: opens the problem report on "The image does not load or is broken". */
  readonly reportBrokenImageButton: Locator;
  /** The "Report a problem" panel, in place of Submit and Skip once opened. */
  readonly problemReport: Locator;
  readonly reportAndSkipButton: Locator;
  readonly expired: Locator;
  readonly cancelled: Locator;
  readonly noTask: Locator;
  readonly notice: Locator;
  readonly errors: Locator;
  /** The boxes against the task's maximum, above Submit ("12 / 200 boxes"), with `data-tone` ok, near, full. */
  readonly boxCount: Locator;
  readonly annotator: AnnotatorPage;

  constructor(readonly page: Page) {
    this.workspace = page.getByTestId('task-workspace');
    this.prompt = page.getByTestId('task-prompt');
    this.countdown = page.getByTestId('countdown');
    this.submitButton = page.getByTestId('submit-task');
    this.skipButton = page.getByTestId('skip-task');
    this.reportProblemButton = page.getByTestId('report-problem');
    this.reportBrokenImageButton = page.getByTestId('report-broken-image');
    this.problemReport = page.getByRole('group', { name: 'Report a problem with this task' });
    this.reportAndSkipButton = this.problemReport.getByRole('button', { name: 'Report and skip' });
    this.expired = page.getByTestId('task-expired');
    this.cancelled = page.getByTestId('task-cancelled');
    this.noTask = page.getByTestId('no-task');
    this.notice = page.getByTestId('lease-notice');
    this.errors = page.getByTestId('error-list');
    this.boxCount = page.getByTestId('box-count');
    this.annotator = new AnnotatorPage(page);
  }

  async goto(projectUuid: string): Promise<this> {
    await this.page.goto(`/work/${projectUuid}`);
    await this.waitForTask();
    return this;
  }

  /** Waits for a task with its image loaded. */
  async waitForTask(): Promise<void> {
    await this.workspace.waitFor();
    await this.annotator.waitReady();
  }

  async checkoutId(): Promise<string> {
    const id = await this.workspace.getAttribute('data-checkout-id');
    if (!id) throw new Error('no checkout id on the task workspace');
    return id;
  }

  /** The keys of the drafts this browser holds (every user's), `crowdbox:draft:<user id>:<checkout id>`. */
  draftKeys(): Promise<string[]> {
    return this.page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('crowdbox:draft:')));
  }

  /**
   * Writes the draft of this page's lease as the app keeps it (the boxes in image pixels of an image of
   * `image`'s size), as a reload or another tab would find it; reload to see it.
   */
  async writeDraft(userId: string, boxes: ImageBox[], image: { width: number; height: number }): Promise<void> {
    const checkoutId = await this.checkoutId();
    const projectUuid = new URL(this.page.url()).pathname.split('/').pop() ?? '';
    await this.page.evaluate(
      ({ key, draft }) => localStorage.setItem(key, JSON.stringify({ ...draft, saved_at: new Date().toISOString() })),
      { key: `crowdbox:draft:${userId}:${checkoutId}`, draft: { checkout_id: checkoutId, project_uuid: projectUuid, boxes, image } },
    );
  }

  async submit(): Promise<void> {
    await this.submitButton.click();
  }

  async skip(): Promise<void> {
    await this.skipButton.click();
  }

  /** The reason's radio in the open problem report, by its words ("The instructions are unclear"). */
  reason(words: string): Locator {
    return this.problemReport.getByRole('radio', { name: words });
  }

  /** The words of the reason whose radio has the focus, or null when the focus is on no radio. */
  focusedReason(): Promise<string | null | undefined> {
    return this.page.evaluate(() => (document.activeElement instanceof HTMLInputElement ? document.activeElement.labels?.[0]?.textContent : null));
  }
}
