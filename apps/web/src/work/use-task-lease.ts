import type { Box } from '@crowdbox/boxes';
import type { CheckoutResponse, ErrorItem } from '@crowdbox/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorItems } from '../api/client';
import { NO_TASK_AVAILABLE, workApi } from '../api/work.api';
import { formatCents } from '../shell/format';
import { clearDraft, loadDraft, saveDraft, userDrafts } from './draft-store';
import { leaseEndOf, type LeaseEnd } from './lease-end';

/** Where the worker is on one project's tasks. */
export type LeaseState =
  | { kind: 'loading' }
  | { kind: 'task'; checkout: CheckoutResponse; initialBoxes: Box[]; resumed: boolean }
  | { kind: 'ended'; reason: LeaseEnd; checkout: CheckoutResponse; lostBoxes: number }
  | { kind: 'no-task' }
  | { kind: 'error'; errors: ErrorItem[] };

/** A notice above the task: what just happened to the previous one. */
export interface LeaseNotice {
  tone: 'success' | 'info' | 'warning';
  text: string;
}

interface LeaseHandout {
  checkout: CheckoutResponse;
  resumed: boolean;
  /** Drafts of this project's earlier leases that ended unsubmitted (now cleared): how many, and their boxes. */
  lostLeases: number;
  lostBoxes: number;
}

async function checkOut(projectUuid: string, userId: string): Promise<LeaseHandout> {
  const { data: checkout, status } = await workApi.checkOut(projectUuid);
  const lost = userDrafts(userId).filter((d) => d.project_uuid === projectUuid && d.checkout_id !== checkout.checkout_id);
  for (const d of lost) clearDraft(userId, d.checkout_id);
  return { checkout, resumed: status === 200, lostLeases: lost.length, lostBoxes: lost.reduce((n, d) => n + d.boxes.length, 0) };
}

// One checkout per project at a time: StrictMode's double effect (or a double click) shares it, and
// with it the one look at the drafts, instead of racing two POSTs.
const inFlight = new Map<string, Promise<LeaseHandout>>();
function checkOutOnce(projectUuid: string, userId: string): Promise<LeaseHandout> {
  const key = `${userId}:${projectUuid}`;
  let pending = inFlight.get(key);
  if (!pending) {
    pending = checkOut(projectUuid, userId).finally(() => inFlight.delete(key));
    inFlight.set(key, pending);
  }
  return pending;
}

/**
 * The lease life cycle of the annotator page: check out (or resume) a task of the project, submit,
 * skip, and expiry. Drafts of this project's earlier leases that ended unsubmitted are reported,
 * never dropped silently. Drafts are the signed-in user's (`userId`) only.
 */
export function useTaskLease(projectUuid: string, userId: string) {
  const [state, setState] = useState<LeaseState>({ kind: 'loading' });
  const [notice, setNotice] = useState<LeaseNotice | null>(null);
  const [busy, setBusy] = useState<'submit' | 'skip' | null>(null);
  const [actionErrors, setActionErrors] = useState<ErrorItem[]>([]);
  const alive = useRef(true);

  const next = useCallback(
    async (afterNotice: LeaseNotice | null) => {
      setState({ kind: 'loading' });
      setActionErrors([]);
      try {
        const { checkout, resumed, lostLeases, lostBoxes } = await checkOutOnce(projectUuid, userId);
        if (!alive.current) return;
        const draft = loadDraft(userId, checkout.checkout_id);
        setNotice(
          lostLeases > 0
            ? {
                tone: 'warning',
                text: `Your previous task here ended before it was submitted (time ran out)${lostBoxes ? `; its ${lostBoxes} ${lostBoxes === 1 ? 'box was' : 'boxes were'} not sent` : ''}. This is a new task.`,
              }
            : afterNotice,
        );
        setState({ kind: 'task', checkout, initialBoxes: draft?.boxes ?? [], resumed });
      } catch (error) {
        if (!alive.current) return;
        // What became of the previous task (a submit and its reward) stays on screen whatever this call did.
        setNotice(afterNotice);
        if (error instanceof ApiError && error.status === 404 && error.has(NO_TASK_AVAILABLE)) {
          setState({ kind: 'no-task' });
        } else {
          setState({ kind: 'error', errors: errorItems(error) });
        }
      }
    },
    [projectUuid, userId],
  );

  useEffect(() => {
    alive.current = true;
    setNotice(null);
    void next(null);
    return () => {
      alive.current = false;
    };
  }, [next]);

  // The task can no longer be submitted: its draft goes, and the page says why and offers the next task.
  const end = useCallback(
    (checkout: CheckoutResponse, reason: LeaseEnd, boxes: number) => {
      clearDraft(userId, checkout.checkout_id);
      setBusy(null);
      setState({ kind: 'ended', reason, checkout, lostBoxes: boxes });
    },
    [userId],
  );
  const expire = useCallback((checkout: CheckoutResponse, boxes: number) => end(checkout, 'expired', boxes), [end]);

  const keepDraft = useCallback(
    (checkout: CheckoutResponse, boxes: Box[]) =>
      saveDraft(userId, { checkout_id: checkout.checkout_id, project_uuid: checkout.project_uuid, boxes }),
    [userId],
  );

  const submit = useCallback(
    async (checkout: CheckoutResponse, boxes: Box[], image: { width: number; height: number }) => {
      setBusy('submit');
      setActionErrors([]);
      try {
        const result = await workApi.submit(checkout.checkout_id, { annotations: boxes, image_width: image.width, image_height: image.height });
        clearDraft(userId, checkout.checkout_id);
        setBusy(null);
        await next({ tone: 'success', text: `Submitted ${boxes.length} ${boxes.length === 1 ? 'box' : 'boxes'}. You earned ${formatCents(result.reward)}.` });
      } catch (error) {
        const ended = leaseEndOf(error);
        if (ended) return end(checkout, ended, boxes.length);
        setBusy(null);
        setActionErrors(errorItems(error));
      }
    },
    [next, end, userId],
  );

  const skip = useCallback(
    async (checkout: CheckoutResponse) => {
      setBusy('skip');
      setActionErrors([]);
      try {
        await workApi.release(checkout.checkout_id);
        clearDraft(userId, checkout.checkout_id);
        setBusy(null);
        await next({ tone: 'info', text: 'Skipped. The task went back to other workers.' });
      } catch (error) {
        const ended = leaseEndOf(error);
        if (ended) return end(checkout, ended, 0);
        setBusy(null);
        setActionErrors(errorItems(error));
      }
    },
    [next, end, userId],
  );

  return { state, notice, busy, actionErrors, next: () => next(null), submit, skip, expire, keepDraft, dismissNotice: () => setNotice(null) };
}
