import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { ApiError } from '../client';
import { LEASE_CALL_TIMEOUT_MS, workApi } from '../work.api';
import { neverAnswer } from './never-answer';

const realFetch = globalThis.fetch;
afterEach(() => {
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

describe('the worker API', () => {
  it('gives up the active leases read (the labels or the maximum after a refused submit, "Submitting…" meanwhile) as unanswered', async () => {
    jest.useFakeTimers();
    neverAnswer();
    const read = workApi.activeCheckouts().catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(LEASE_CALL_TIMEOUT_MS);
    const error = await read;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(0);
  });

  it('still lets the work list abort that read itself', async () => {
    neverAnswer();
    const controller = new AbortController();
    const read = workApi.activeCheckouts(controller.signal).catch((e: unknown) => e);
    controller.abort();
    expect(((await read) as Error).name).toBe('AbortError');
  });
});
