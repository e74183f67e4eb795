import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError, READ_TIMEOUT_MS, api } from '../client';
import { neverAnswer } from './never-answer';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

describe('a page’s read', () => {
  it.each([
    ['get', () => api.get('/api/console/projects')],
    ['getBody', () => api.getBody('/api/work/submissions')],
  ])('%s gives up as unanswered (status 0) after READ_TIMEOUT_MS, not before', async (_name, read) => {
    jest.useFakeTimers();
    neverAnswer();
    let settled = false;
    const outcome = read()
      .catch((e: unknown) => e)
      .finally(() => (settled = true));
    await jest.advanceTimersByTimeAsync(READ_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
  });

  it('is still the caller’s to abort, as an abort', async () => {
    neverAnswer();
    const controller = new AbortController();
    const read = api.get('/api/console/projects', controller.signal).catch((e: unknown) => e);
    controller.abort();
    expect(((await read) as Error).name).toBe('AbortError');
  });
});
