import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { consoleApi } from '../../console/lib/console-api';
import { api, ApiError, apiRequest, setUnauthorizedHandler } from '../client';
import { answer } from './fake-fetch';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  setUnauthorizedHandler(null);
});

describe('the API client', () => {
  it('unwraps data, and reads a reply whole when asked', async () => {
    const page = { data: [{ task_uuid: 't1' }], next_cursor: 'c1' };
    answer(200, page);
    expect(await api.get('/api/x')).toEqual(page.data);
    expect(await api.getBody<typeof page>('/api/x')).toEqual(page);
    const result = await apiRequest<typeof page.data, typeof page>('/api/x');
    expect(result).toEqual({ data: page.data, body: page, status: 200 });
  });

  it('turns an error reply into an ApiError with the API items', async () => {
    answer(422, { errors: [{ field: 'before', detail: 'must be a next_cursor from a previous page' }] });
    const error = await api.getBody('/api/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(422);
    expect((error as ApiError).fieldError('before')).toBe('must be a next_cursor from a previous page');
  });
});

describe('the console task list', () => {
  let unauthorized: jest.Mock<() => void>;
  beforeEach(() => {
    unauthorized = jest.fn<() => void>();
    setUnauthorizedHandler(unauthorized);
  });

  it('returns next_cursor beside the rows, through the shared client', async () => {
    const calls = answer(200, { data: [{ task_uuid: 't1' }], next_cursor: '2026-01-01T00:00:00.000Z|t1' });
    const page = await consoleApi.tasks('p 1', { state: 'incomplete', before: 'c0', limit: 25 });
    expect(page).toEqual({ data: [{ task_uuid: 't1' }], next_cursor: '2026-01-01T00:00:00.000Z|t1' });
    expect(calls).toHaveLength(1);
    expect(calls[0].url).toBe('/api/console/projects/p%201/tasks?state=incomplete&before=c0&limit=25');
    expect(calls[0].init).toMatchObject({ method: 'GET', credentials: 'include', headers: { accept: 'application/json' } });
  });

  it('sends a requester whose session ended to log in, like every other call', async () => {
    answer(401, { errors: [{ field: 'root', detail: 'not signed in' }] });
    await expect(consoleApi.tasks('p1', {})).rejects.toBeInstanceOf(ApiError);
    expect(unauthorized).toHaveBeenCalledTimes(1);
  });
});
