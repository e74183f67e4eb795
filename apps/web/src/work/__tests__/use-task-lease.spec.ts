import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import { ApiError } from '../../api/client';
import { LEASE_CALL_TIMEOUT_MS, NO_TASK_AVAILABLE, workApi } from '../../api/work.api';
import { neverAnswer } from '../../api/__tests__/never-answer';
import { loadDraft, saveDraft } from '../draft-store';
import { SKIPPED_NOTICE } from '../lease-notices';
import { useTaskLease } from '../use-task-lease';
import { PROJECT, USER, aLease, box, handsOut } from './lease-fixtures';

// The lease life cycle's notices about drafts left by earlier leases of the project (settle-drafts.ts).


const NO_ANSWER = () => new ApiError(0, [{ field: 'root', detail: 'The server could not be reached.' }], false);

beforeEach(() => {
  localStorage.clear();
});

const realFetch = globalThis.fetch;
afterEach(() => {
  jest.restoreAllMocks();
  globalThis.fetch = realFetch;
  jest.useRealTimers();
});

/** A lease state read that answers only when the test says. */
function heldStateRead() {
  let answer: (state: string) => void = () => undefined;
  jest.spyOn(workApi, 'checkoutState').mockReturnValue(
    new Promise((resolve) => {
      answer = (state) => resolve({ checkout_id: 'old', state });
    }),
  );
  return (state: string) => act(async () => answer(state));
}

async function openProject() {
  const view = renderHook(() => useTaskLease(PROJECT, USER));
  await act(async () => undefined);
  return view.result;
}

describe('the notice about an earlier lease’s draft', () => {
  it('is said beside the submit’s confirmation, not in its place, when that draft is settled at the next checkout', async () => {
    // A draft of a lease that ended before; the server cannot be asked about it at the first checkout.
    saveDraft(USER, { checkout_id: 'old', project_uuid: PROJECT, boxes: [box, box] });
    handsOut('c1', 'c2');
    jest.spyOn(workApi, 'checkoutState').mockRejectedValueOnce(NO_ANSWER()).mockResolvedValueOnce({ checkout_id: 'old', state: 'expired' });
    jest.spyOn(workApi, 'submit').mockResolvedValue({ submission_id: 's1', reward: 25 });

    const lease = await openProject();
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: { checkout_id: 'c1' } });
    expect(lease.current.notice).toBeNull();

    await act(() => lease.current.submit(aLease('c1'), [box], { width: 100, height: 100 }));
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: { checkout_id: 'c2' } });
    expect(lease.current.notice?.text).toContain('Submitted 1 box. You earned $0.25.');
    expect(lease.current.notice?.text).toContain('Your previous task here ended before it was submitted');
    expect(lease.current.notice?.text).toContain('its 2 boxes were not sent');
  });
});

describe('a new task while the server is asked about an earlier lease’s draft', () => {
  it('is shown as soon as the checkout answers, not after the question (up to 20 s of the new lease’s time)', async () => {
    jest.useFakeTimers();
    // Every request but the (mocked) checkout goes unanswered: the lease state read of the leftover draft too.
    neverAnswer();
    saveDraft(USER, { checkout_id: 'old', project_uuid: PROJECT, boxes: [box] });
    handsOut('c1');

    const lease = await openProject();
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: { checkout_id: 'c1' } });

    // The question gives up unanswered: the draft is kept for next time, and nothing is said of it.
    await act(() => jest.advanceTimersByTimeAsync(LEASE_CALL_TIMEOUT_MS));
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: { checkout_id: 'c1' } });
    expect(lease.current.notice).toBeNull();
    expect(loadDraft(USER, 'old')).not.toBeNull();
  });

  it('gets the notice about that draft when the server answers', async () => {
    saveDraft(USER, { checkout_id: 'old', project_uuid: PROJECT, boxes: [box] });
    handsOut('c1');
    const answer = heldStateRead();

    const lease = await openProject();
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: { checkout_id: 'c1' } });
    expect(lease.current.notice).toBeNull();
    await answer('expired');
    expect(lease.current.notice?.text).toContain('Your previous task here ended before it was submitted');
  });

  it('does not get it once the page has moved on from that lease', async () => {
    saveDraft(USER, { checkout_id: 'old', project_uuid: PROJECT, boxes: [box] });
    handsOut('c1').mockRejectedValueOnce(new ApiError(404, [{ field: 'root', detail: NO_TASK_AVAILABLE }]));
    jest.spyOn(workApi, 'release').mockResolvedValue({ checkout_id: 'c1', state: 'released' });
    const answer = heldStateRead();

    const lease = await openProject();
    await act(() => lease.current.skip(aLease('c1')));
    expect(lease.current.state).toEqual({ kind: 'no-task' });
    await answer('expired');
    expect(lease.current.notice).toEqual(SKIPPED_NOTICE);
  });
});
