import type { CheckoutResponse } from '@crowdbox/contracts';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { act, renderHook } from '@testing-library/react';
import { ApiError } from '../../api/client';
import { ALREADY_SUBMITTED, workApi } from '../../api/work.api';
import { loadDraft, saveDraft } from '../draft-store';
import { useTaskLease } from '../use-task-lease';
import { PROJECT, USER, aLease, box, handsOut } from './lease-fixtures';

// What the page does when its countdown ends (the give-back and its answer), and answers that come for a
// lease the page has left behind.

const image = { width: 640, height: 480 };

/** The release at the countdown's end answers 200 with this lease state. */
const releaseAnswers = (state: string) => jest.spyOn(workApi, 'release').mockResolvedValue({ checkout_id: 'c1', state });

async function openProject() {
  const view = renderHook(() => useTaskLease(PROJECT, USER));
  await act(async () => undefined);
  return view.result;
}

type Lease = Awaited<ReturnType<typeof openProject>>;

async function countdownEnds(lease: Lease, boxes: number) {
  const { state } = lease.current;
  if (state.kind !== 'task') throw new Error(`no task on screen: ${state.kind}`);
  await act(async () => lease.current.expire(state.checkout, boxes));
  await act(async () => undefined);
}

beforeEach(() => {
  localStorage.clear();
});

afterEach(() => {
  jest.restoreAllMocks();
});

describe('the end of the countdown', () => {
  it('says the task was cancelled when the requester cancelled it meanwhile (the release answers 200 `cancelled`), not "Time is up"', async () => {
    handsOut('c1');
    releaseAnswers('cancelled');
    const lease = await openProject();

    await countdownEnds(lease, 3);

    expect(lease.current.state).toMatchObject({ kind: 'ended', reason: 'cancelled', lostBoxes: 3 });
  });

  it.each(['released', 'expired'])('says time is up when the release answers `%s`', async (answer) => {
    handsOut('c1');
    releaseAnswers(answer);
    const lease = await openProject();

    await countdownEnds(lease, 2);

    expect(lease.current.state).toMatchObject({ kind: 'ended', reason: 'expired', lostBoxes: 2 });
  });

  it('says time is up when the release gets no answer', async () => {
    handsOut('c1');
    jest.spyOn(workApi, 'release').mockRejectedValue(new ApiError(0, [{ field: 'root', detail: 'The server could not be reached.' }], false));
    const lease = await openProject();

    await countdownEnds(lease, 1);

    expect(lease.current.state).toMatchObject({ kind: 'ended', reason: 'expired', lostBoxes: 1 });
  });

  it('on a lease submitted elsewhere (a tab left open behind the one that submitted) says so and takes no new task until "Next task"', async () => {
    const checkOut = handsOut('c1', 'c2');
    jest.spyOn(workApi, 'release').mockRejectedValue(new ApiError(422, [{ field: 'root', detail: ALREADY_SUBMITTED }]));
    saveDraft(USER, { checkout_id: 'c1', project_uuid: PROJECT, boxes: [box] });
    const lease = await openProject();

    await countdownEnds(lease, 1);

    expect(lease.current.state).toMatchObject({ kind: 'ended', reason: 'submitted', lostBoxes: 0 });
    expect(lease.current.busy).toBeNull();
    expect(checkOut).toHaveBeenCalledTimes(1);
    expect(loadDraft(USER, 'c1')).toBeNull();

    await act(async () => lease.current.next());
    expect(checkOut).toHaveBeenCalledTimes(2);
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: { checkout_id: 'c2' } });
  });
});

describe('an answer read after a refused submit', () => {
  /** The active leases' read (labels, max_boxes) answers only when the test says. */
  function heldActiveRead() {
    let answer: (leases: CheckoutResponse[]) => void = () => undefined;
    jest.spyOn(workApi, 'activeCheckouts').mockReturnValue(
      new Promise((resolve) => {
        answer = resolve;
      }),
    );
    return (leases: CheckoutResponse[]) => act(async () => answer(leases));
  }

  it.each<[string, ApiError, Partial<CheckoutResponse>]>([
    ['the labels', new ApiError(422, [{ field: 'annotations.0.label', detail: 'unknown label' }]), { labels: [{ name: 'truck', color: '#000000' }] }],
    ['the maximum', new ApiError(422, [{ field: 'annotations', detail: 'at most 1 box' }]), { max_boxes: 1 }],
  ])('of %s does not land on the next task when the lease ended and the worker moved on meanwhile', async (_what, refusal, changed) => {
    handsOut('c1', 'c2');
    jest.spyOn(workApi, 'submit').mockRejectedValue(refusal);
    const answerRead = heldActiveRead();
    releaseAnswers('released');
    const lease = await openProject();

    await act(async () => void lease.current.submit(aLease('c1'), [box, box], image));
    expect(lease.current.busy).toBe('submit');
    await countdownEnds(lease, 2);
    expect(lease.current.state).toMatchObject({ kind: 'ended', reason: 'expired' });
    await act(async () => lease.current.next());
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: { checkout_id: 'c2' } });

    await answerRead([{ ...aLease('c1'), ...changed }]);

    expect(lease.current.failure).toBeNull();
    expect(lease.current.busy).toBeNull();
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: aLease('c2') });
  });

  it('is said on the lease while it is still on screen', async () => {
    handsOut('c1');
    jest.spyOn(workApi, 'submit').mockRejectedValue(new ApiError(422, [{ field: 'annotations.0.label', detail: 'unknown label' }]));
    const answerRead = heldActiveRead();
    const lease = await openProject();

    await act(async () => void lease.current.submit(aLease('c1'), [box], image));
    await answerRead([{ ...aLease('c1'), labels: [{ name: 'truck', color: '#000000' }] }]);

    expect(lease.current.failure?.title).toBe('The labels of this project changed');
    expect(lease.current.busy).toBeNull();
    expect(lease.current.state).toMatchObject({ kind: 'task', checkout: { labels: [{ name: 'truck' }] } });
  });
});

describe('"Try again" after a checkout failed', () => {
  it('keeps what was said of the previous task (a submit and its reward)', async () => {
    const checkOut = handsOut('c1');
    checkOut.mockRejectedValueOnce(new ApiError(500, [{ field: 'root', detail: 'internal error' }]));
    checkOut.mockRejectedValueOnce(new ApiError(500, [{ field: 'root', detail: 'internal error' }]));
    jest.spyOn(workApi, 'submit').mockResolvedValue({ submission_id: 's1', reward: 25 });
    const lease = await openProject();

    await act(async () => lease.current.submit(aLease('c1'), [box], image));
    expect(lease.current.state.kind).toBe('error');
    expect(lease.current.notice?.text).toBe('Submitted 1 box. You earned $0.25.');

    await act(async () => lease.current.retry());
    expect(checkOut).toHaveBeenCalledTimes(3);
    expect(lease.current.state.kind).toBe('error');
    expect(lease.current.notice?.text).toBe('Submitted 1 box. You earned $0.25.');
  });
});
