import type { Locator, Page } from 'playwright-core';

/** /work — the projects with work, tasks in progress and earnings. */
export class WorkProjectsPage {
  readonly projects: Locator;
  readonly earnings: Locator;

  constructor(readonly page: Page) {
    this.projects = page.getByTestId('work-project');
    this.earnings = page.getByTestId('earnings');
  }

  async goto(): Promise<this> {
    await this.page.goto('/work');
    await this.page.getByRole('heading', { name: 'Find work' }).waitFor();
    return this;
  }

  project(displayName: string): Locator {
    return this.projects.filter({ has: this.page.getByRole('heading', { name: displayName }) });
  }

  /** Clicks Start (or Resume) on the project's card. */
  async start(displayName: string): Promise<void> {
    await this.project(displayName).getByRole('link', { name: /^(Start|Resume) / }).click();
  }
}
