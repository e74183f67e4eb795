import type { ConsoleProjectResponse } from '@crowdbox/contracts';
import { afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { act, render, screen } from '@testing-library/react';
import { TextEncoder } from 'node:util';
import { consoleApi } from '../../lib/console-api';
import { aConsoleProject } from '../../__tests__/console-project.fixture';

// "Your first call" offers the newest projects in use, from one page of the paged project list
// (docs/decisions.md, "The project list is paged").

// react-router needs TextEncoder, which jsdom lacks: the router and the page are imported once it is there.
let router: typeof import('react-router');
let page: typeof import('../api-keys-page');
beforeAll(async () => {
  Object.assign(globalThis, { TextEncoder });
  [router, page] = await Promise.all([import('react-router'), import('../api-keys-page')]);
});

afterEach(() => {
  jest.restoreAllMocks();
});

function project(n: number): ConsoleProjectResponse {
  return aConsoleProject(n, { template: '<p>Box every car in [[place]]</p>', variables: { place: null } });
}

describe('ApiKeysPage, Your first call', () => {
  it('asks for one page of the projects in use (the newest 100) and offers them, the newest chosen', async () => {
    jest.spyOn(consoleApi, 'apiKeys').mockResolvedValue([]);
    const projects = jest
      .spyOn(consoleApi, 'projects')
      .mockResolvedValue({ data: [project(2), project(1)], next_cursor: 'more', counts: { in_use: 150, archived: 3 } });
    const { createMemoryRouter, RouterProvider } = router;
    render(<RouterProvider router={createMemoryRouter([{ path: '/console/keys', element: <page.ApiKeysPage /> }], { initialEntries: ['/console/keys'] })} />);
    await act(async () => undefined);

    expect(projects).toHaveBeenCalledTimes(1);
    expect(projects.mock.calls[0][0]).toEqual({ archived: false, limit: 100 });
    const picker = screen.getByLabelText('Project') as HTMLSelectElement;
    expect([...picker.options].map((o) => o.textContent)).toEqual(['Project 2', 'Project 1']);
    expect(picker.value).toBe(project(2).uuid);
    expect(screen.getByText(/project_uuid/).textContent).toContain(project(2).uuid);
  });
});
