import type { ConsoleProjectResponse, ConsoleProjectsPage, ProjectProgress } from '@crowdbox/contracts';
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { ApiError } from '../../../api/client';
import { consoleApi } from '../../lib/console-api';
import { aConsoleProject } from '../../__tests__/console-project.fixture';

// The Projects page asks for one page of projects at a time and the progress of that page's projects
// only (docs/console.md, "Projects"; docs/decisions.md, "The project list is paged").

// react-router needs TextEncoder, which jsdom lacks: the router and the page are imported once it is there.
let router: typeof import('react-router');
let page: typeof import('../project-list-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../project-list-page')]);
});

afterEach(() => {
  jest.restoreAllMocks();
});

function project(n: number, archived = false): ConsoleProjectResponse {
  return aConsoleProject(n, { archived_at: archived ? '2026-11-02T10:00:00.000Z' : null });
}

const PROGRESS: ProjectProgress = {
  tasks: { total: 0, complete: 0, outstanding: 0, cancelled: 0, reported: 0 },
  submissions: 0,
  paid_cents: 0,
  committed_cents: 0,
  daily: [],
};

function answer(data: ConsoleProjectResponse[], next_cursor: string | null, counts: ConsoleProjectsPage['counts']): ConsoleProjectsPage {
  return { data, next_cursor, counts };
}

const FIRST = [project(1), project(2)];
const NEXT = [project(3)];

function mockProgress() {
  return jest.spyOn(consoleApi, 'progress').mockResolvedValue(PROGRESS);
}

/** The uuids progress was asked for, in order. */
function progressAskedFor(progress: ReturnType<typeof mockProgress>): string[] {
  return progress.mock.calls.map(([uuid]) => uuid);
}

async function open(path: string) {
  const { MemoryRouter, Route, Routes } = router;
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/console" element={<page.ProjectListPage />} />
      </Routes>
    </MemoryRouter>,
  );
  await act(async () => undefined);
}

function cardNames(): string[] {
  return screen.queryAllByTestId('project-card').map((card) => within(card).getByRole('link').textContent ?? '');
}

describe('ProjectListPage', () => {
  it('asks for one page of the projects in use and the progress of that page only, and shows the counts in the Archived link', async () => {
    const projects = jest.spyOn(consoleApi, 'projects').mockResolvedValue(answer(FIRST, 'cursor-1', { in_use: 3, archived: 4 }));
    const progress = mockProgress();
    await open('/console');

    expect(cardNames()).toEqual(['Project 1', 'Project 2']);
    expect(projects).toHaveBeenCalledTimes(1);
    expect(projects.mock.calls[0][0]).toEqual({ archived: false, before: undefined, limit: 20 });
    expect(progressAskedFor(progress)).toEqual(FIRST.map((p) => p.uuid));
    expect(screen.getByTestId('show-archived').textContent).toBe('Archived (4)');
    expect(screen.getByRole('button', { name: 'Load more projects' })).toBeTruthy();
  });

  it('"Load more projects" appends the next page and asks for its projects\' progress only; no button once the last page is in', async () => {
    const projects = jest
      .spyOn(consoleApi, 'projects')
      .mockResolvedValueOnce(answer(FIRST, 'cursor-1', { in_use: 3, archived: 0 }))
      .mockResolvedValueOnce(answer(NEXT, null, { in_use: 3, archived: 0 }));
    const progress = mockProgress();
    await open('/console');
    fireEvent.click(screen.getByRole('button', { name: 'Load more projects' }));
    await act(async () => undefined);

    expect(cardNames()).toEqual(['Project 1', 'Project 2', 'Project 3']);
    expect(projects).toHaveBeenCalledTimes(2);
    expect(projects.mock.calls[1][0]).toEqual({ archived: false, before: 'cursor-1', limit: 20 });
    expect(progressAskedFor(progress)).toEqual([...FIRST, ...NEXT].map((p) => p.uuid));
    expect(screen.queryByRole('button', { name: 'Load more projects' })).toBeNull();
    // The focus does not fall to the page's body with the button: the first card it brought has it.
    expect(document.activeElement?.textContent).toBe('Project 3');
    expect(screen.queryByTestId('show-archived')).toBeNull();
  });

  it('the archived view asks for archived projects and leads back with the count in use', async () => {
    const projects = jest.spyOn(consoleApi, 'projects').mockResolvedValue(answer([project(5, true)], null, { in_use: 12, archived: 1 }));
    mockProgress();
    await open('/console?archived=1');

    expect(projects.mock.calls[0][0]).toEqual({ archived: true, before: undefined, limit: 20 });
    expect(cardNames()).toEqual(['Project 5']);
    expect(screen.getByTestId('show-active').textContent).toBe('← Projects in use (12)');
    expect(screen.queryByRole('button', { name: 'Load more projects' })).toBeNull();
  });

  it('says "No projects yet" when the account has none at all', async () => {
    jest.spyOn(consoleApi, 'projects').mockResolvedValue(answer([], null, { in_use: 0, archived: 0 }));
    const progress = mockProgress();
    await open('/console');
    expect(screen.getByRole('heading', { name: 'No projects yet' })).toBeTruthy();
    expect(progress).not.toHaveBeenCalled();
  });

  it('says every project is archived when none is in use, with the Archived count', async () => {
    jest.spyOn(consoleApi, 'projects').mockResolvedValue(answer([], null, { in_use: 0, archived: 2 }));
    mockProgress();
    await open('/console');
    expect(screen.getByTestId('no-projects-shown').textContent).toBe('Every project is archived.');
    expect(screen.getByTestId('show-archived').textContent).toBe('Archived (2)');
    expect(screen.queryByRole('heading', { name: 'No projects yet' })).toBeNull();
  });

  it('says there are no archived projects under Archived when none is', async () => {
    jest.spyOn(consoleApi, 'projects').mockResolvedValue(answer([], null, { in_use: 2, archived: 0 }));
    mockProgress();
    await open('/console?archived=1');
    expect(screen.getByTestId('no-projects-shown').textContent).toBe('No archived projects.');
    expect(screen.getByTestId('show-active').textContent).toBe('← Projects in use (2)');
  });

  it('a failed "Load more projects" keeps the rows shown, says so, and the button tries again', async () => {
    const projects = jest
      .spyOn(consoleApi, 'projects')
      .mockResolvedValueOnce(answer(FIRST, 'cursor-1', { in_use: 3, archived: 0 }))
      .mockRejectedValueOnce(new ApiError(429, [{ field: 'root', detail: 'Too many requests. Try again in a moment.' }], false))
      .mockResolvedValueOnce(answer(NEXT, null, { in_use: 3, archived: 0 }));
    mockProgress();
    await open('/console');
    fireEvent.click(screen.getByRole('button', { name: 'Load more projects' }));
    await act(async () => undefined);

    expect(cardNames()).toEqual(['Project 1', 'Project 2']);
    const error = screen.getByTestId('error-list');
    expect(error.textContent).toContain('The next projects could not be loaded.');
    expect(error.textContent).toContain('Too many requests.');

    fireEvent.click(screen.getByRole('button', { name: 'Load more projects' }));
    await act(async () => undefined);
    expect(projects.mock.calls[2][0]).toEqual({ archived: false, before: 'cursor-1', limit: 20 });
    expect(cardNames()).toEqual(['Project 1', 'Project 2', 'Project 3']);
    expect(screen.queryByTestId('error-list')).toBeNull();
  });
});
