import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError, READ_TIMEOUT_MS, WRITE_TIMEOUT_MS, api } from '../client';
import { sessionApi } from '../session.api';
import { neverAnswer } from './never-answer';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

describe('a request without an answer', () => {
  it.each([
    ['a read (get)', () => api.get('/api/console/projects'), READ_TIMEOUT_MS],
    ['a read (getBody)', () => api.getBody('/api/work/submissions'), READ_TIMEOUT_MS],
    ['a console write', () => api.post('/api/console/api_keys', { mode: 'live' }), WRITE_TIMEOUT_MS],
    ['a log-in', () => sessionApi.logIn('a@example.com', 'correct horse battery'), WRITE_TIMEOUT_MS],
  ])('%s is given up as unanswered (status 0) after its time, not before', async (_name, call, timeoutMs) => {
    jest.useFakeTimers();
    neverAnswer();
    let settled = false;
    const outcome = call()
      .catch((e: unknown) => e)
      .finally(() => (settled = true));
    await jest.advanceTimersByTimeAsync(timeoutMs - 1);
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
