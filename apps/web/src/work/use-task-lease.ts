import type { Box, ImageSize } from '@crowdbox/boxes';
import type { CheckoutResponse, ErrorItem, TaskProblem } from '@crowdbox/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, errorItems, mayHaveArrived } from '../api/client';
import { NO_TASK_AVAILABLE, workApi } from '../api/work.api';
import { currentLabels, labelsChangedMessage, refusedLabels } from './changed-labels';
import { clearDraft, loadDraft, saveDraft, userDrafts, watchDraft, type Draft } from './draft-store';
import { leaseOutcomeOf, type LeaseOutcome } from './lease-end';
import {
  ALREADY_SUBMITTED_NOTICE,
  earlierNotice,
  NO_ANSWER,
  SKIPPED_CANCELLED_NOTICE,
  SKIPPED_NOTICE,
  SUBMIT_ARRIVED_NOTICE,
  submittedNotice,
  withEarlier,
  type ActionFailure,
  type LeaseNotice,
} from './lease-notices';
import { leaseOutcomeNow, leaseOutcomeOnceEnded } from './lease-outcome';
import { settleDrafts } from './settle-drafts';
import { currentMaxBoxes, refusedForBoxCount } from './too-many-boxes';

/** Where the worker is on one project's tasks. */
export type LeaseState =
  | { kind: 'loading' }
  /** `initialImage`: the size of the image the draft's boxes were drawn on, when known. */
  | { kind: 'task'; checkout: CheckoutResponse; initialBoxes: Box[]; initialImage?: ImageSize; resumed: boolean }
  /**
   * `unsure`: the last submit got no answer and the server could not say what became of it; its draft is kept.
   * `submitted`: the countdown ended on a lease submitted elsewhere (another tab on it): the page stops there
   * rather than take a new task that nobody may be looking at.
   */
  | { kind: 'ended'; reason: LeaseOutcome; checkout: CheckoutResponse; lostBoxes: number; unsure?: boolean }
  | { kind: 'no-task' }
  | { kind: 'error'; errors: ErrorItem[] };

/** What the page is waiting for: a submit's or a Skip's answer, or the lease's state read back after the countdown ended. */
export type Busy = 'submit' | 'skip' | 'check' | null;

interface LeaseHandout {
  checkout: CheckoutResponse;
  resumed: boolean;
  /** The drafts of this project's earlier leases, to settle with the server (settle-drafts.ts). */
  leftover: Draft[];
}

async function checkOut(projectUuid: string, userId: string): Promise<LeaseHandout> {
  const { data: checkout, status } = await workApi.checkOut(projectUuid);
  // A worker holds one active lease per project, and this is it: every other draft here is of a lease that ended.
  const leftover = userDrafts(userId).filter((d) => d.project_uuid === projectUuid && d.checkout_id !== checkout.checkout_id);
  return { checkout, resumed: status === 200, leftover };
}

/**
 * How a lease the page gave back at the end of its countdown ended, from the release's answer: 200 with
 * the lease's state (`released` by this give-back, within the seconds before the server's deadline, or
 * `expired`: time is up either way; `cancelled`: the requester cancelled the task, before or as it was
 * given back), or 422 when it was submitted already. A lease given back elsewhere also answers `released`,
 * which the release cannot tell from its own. Anything else (no answer) says time is up.
 */
function givenBackAs(release: Promise<{ state: string }>): Promise<LeaseOutcome> {
  return release.then(
    ({ state }) => (state === 'cancelled' ? 'cancelled' : 'expired'),
    (error: unknown) => leaseOutcomeOf(error) ?? 'expired',
  );
}

// One checkout per project at a time: StrictMode's double effect (or a double click) shares it instead
// of racing two POSTs.
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
 * skip, expiry and cancelling, a task the server already has, and labels changed during the lease. Drafts of this project's earlier
 * leases that the server says ended unsubmitted are reported, never dropped silently. Drafts are the
 * signed-in user's (`userId`) only.
 */
export function useTaskLease(projectUuid: string, userId: string, onStopped?: (notice: LeaseNotice) => void) {
  const [state, setState] = useState<LeaseState>({ kind: 'loading' });
  const [notice, setNotice] = useState<LeaseNotice | null>(null);
  // What became of the earlier leases' drafts, said beside `notice`: in its place, it hid a submit's confirmation.
  const [earlierDrafts, setEarlierDrafts] = useState<LeaseNotice | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [failure, setFailure] = useState<ActionFailure | null>(null);
  const alive = useRef(true);
  // The lease the last checkout handed out, until the next checkout starts: an earlier drafts' notice is
  // for that lease's screen only, not for one the page has moved on to since.
  const handedOut = useRef<string | null>(null);
  // The give-back of a lease the page ended by its own clock (expire below); the next checkout waits for it.
  const givingBack = useRef<Promise<unknown> | null>(null);
  // The lease whose submit or Skip is out (its answer decides what became of it, even past the page's
  // deadline), whether the countdown ended meanwhile, and the lease whose last submit got no answer.
  const outFor = useRef<string | null>(null);
  const lateFor = useRef<string | null>(null);
  const unsureFor = useRef<string | null>(null);
  // The lease on screen while its countdown runs: an answer that comes for a lease after that (the labels or
  // the maximum read after a refused submit) is not for the screen the worker now has.
  const openLease = useRef<string | null>(null);
  // "Submit and stop": once the task is done, the worker leaves instead of taking the next task.
  const stopAfter = useRef(false);
  const stopped = useRef(onStopped);
  useEffect(() => {
    stopped.current = onStopped;
  });

  const next = useCallback(
    async (afterNotice: LeaseNotice | null) => {
      // A submit or skip answered after the worker left the page: a task checked out now would hold a
      // slot, unseen, for the whole time allowed.
      if (!alive.current) return;
      setState({ kind: 'loading' });
      setFailure(null);
      setEarlierDrafts(null);
      handedOut.current = null;
      openLease.current = null;
      try {
        await givingBack.current;
        givingBack.current = null;
        const { checkout, resumed, leftover } = await checkOutOnce(projectUuid, userId);
        if (!alive.current) return;
        const draft = loadDraft(userId, checkout.checkout_id);
        setNotice(afterNotice);
        handedOut.current = checkout.checkout_id;
        openLease.current = checkout.checkout_id;
        setState({ kind: 'task', checkout, initialBoxes: draft?.boxes ?? [], initialImage: draft?.image, resumed });
        // The lease's time runs from the checkout, so the task is shown at once; the server is asked about
        // the earlier drafts meanwhile (each question up to 20 s), and its answer is said when it comes.
        void settleDrafts(userId, leftover).then((earlier) => {
          if (alive.current && handedOut.current === checkout.checkout_id) setEarlierDrafts(earlierNotice(earlier));
        });
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
    setEarlierDrafts(null);
    void next(null);
    return () => {
      alive.current = false;
    };
  }, [next]);

  // The task can no longer be submitted: its draft goes, and the page says why and offers the next task.
  const end = useCallback(
    (checkout: CheckoutResponse, reason: LeaseOutcome, boxes: number) => {
      clearDraft(userId, checkout.checkout_id);
      openLease.current = null;
      setBusy(null);
      setState({ kind: 'ended', reason, checkout, lostBoxes: boxes });
    },
    [userId],
  );
  // The task is finished here (submitted, now or before, or skipped): its draft goes, the next task comes,
  // or, after "Submit and stop", none: the page hands the notice on and the worker leaves.
  const done = useCallback(
    async (checkout: CheckoutResponse, notice: LeaseNotice) => {
      clearDraft(userId, checkout.checkout_id);
      setBusy(null);
      if (stopAfter.current && stopped.current && alive.current) {
        stopAfter.current = false;
        stopped.current(notice);
        return;
      }
      await next(notice);
    },
    [next, userId],
  );

  // The page ends a lease a little before the server's deadline (countdown.tsx, SUBMIT_MARGIN_MS), so
  // for those seconds the server still holds it: "Next task" would get it back, only to end it again at
  // once. It is given back instead (answered harmlessly if the server has ended it meanwhile), which
  // also frees its slot for other workers a little sooner. The answer says how the lease ended if not
  // by time (givenBackAs): cancelled by the requester, or submitted (in another tab on it, or by a submit
  // whose answer was lost), which the page says rather than "Time is up" and boxes not sent. A submitted
  // one ends here too, under "already submitted" with "Next task": this page may be a tab left open behind
  // the one that submitted, and a task checked out now would hold a slot, unseen, for its whole time.
  // `problem`: a problem report whose own request failed as the time ran out; the server keeps it on the ended lease.
  const giveBack = useCallback(
    async (checkout: CheckoutResponse, boxes: number, problem?: TaskProblem) => {
      const outcome = givenBackAs(workApi.release(checkout.checkout_id, problem));
      givingBack.current = outcome;
      setBusy('check');
      setFailure(null);
      const ended = await outcome;
      if (!alive.current) return;
      end(checkout, ended, ended === 'submitted' ? 0 : boxes);
    },
    [end],
  );

  // A submit that may have arrived, and the page's time is up: a give-back would undo it if it is still on
  // its way, so the server is asked what became of the lease instead. The draft stays until it says.
  const readBack = useCallback(
    async (checkout: CheckoutResponse, boxes: number) => {
      setBusy('check');
      setFailure(null);
      const outcome = await leaseOutcomeOnceEnded(checkout.checkout_id);
      if (!alive.current) return;
      if (outcome === 'submitted') return done(checkout, SUBMIT_ARRIVED_NOTICE);
      if (outcome) return end(checkout, outcome, boxes);
      // No word from the server: the draft is kept, and settled with the next checkout (settle-drafts.ts).
      setBusy(null);
      setState({ kind: 'ended', reason: 'expired', checkout, lostBoxes: boxes, unsure: true });
    },
    [done, end],
  );

  // The countdown ended. With a submit or Skip out, its answer decides (below); after a submit that got
  // no answer, the server does; otherwise the page gives the lease back.
  const expire = useCallback(
    (checkout: CheckoutResponse, boxes: number) => {
      const id = checkout.checkout_id;
      if (openLease.current === id) openLease.current = null;
      if (outFor.current === id) lateFor.current = id;
      else if (unsureFor.current === id) void readBack(checkout, boxes);
      else void giveBack(checkout, boxes);
    },
    [giveBack, readBack],
  );

  /** Marks a submit or Skip as out until its answer; the answer's handler learns whether the countdown ended meanwhile. */
  const sendFor = useCallback((checkout: CheckoutResponse, kind: 'submit' | 'skip') => {
    outFor.current = checkout.checkout_id;
    lateFor.current = null;
    setBusy(kind);
    setFailure(null);
    return () => {
      outFor.current = null;
      return lateFor.current === checkout.checkout_id;
    };
  }, []);

  const keepDraft = useCallback(
    (checkout: CheckoutResponse, boxes: Box[], image: ImageSize | undefined): boolean =>
      saveDraft(userId, { checkout_id: checkout.checkout_id, project_uuid: checkout.project_uuid, boxes, image }),
    [userId],
  );

  // Another tab on the same lease saved its boxes: this page shows them too, so the last edit in either wins
  // and neither tab overwrites what the other drew (docs/annotator.md, "Two tabs on one lease").
  const watchOtherTabs = useCallback(
    (checkout: CheckoutResponse, onBoxes: (boxes: Box[], drawnIn: ImageSize | undefined) => void) =>
      watchDraft(userId, checkout.checkout_id, (draft) => onBoxes(draft.boxes, draft.image)),
    [userId],
  );

  // The requester changed the project's labels during the lease: the picker gets the current ones, the boxes stay to relabel.
  const relabel = useCallback(async (checkout: CheckoutResponse, boxes: Box[], refused: string[]) => {
    const labels = await currentLabels(checkout.checkout_id);
    if (!alive.current || openLease.current !== checkout.checkout_id) return;
    if (labels) {
      setState((s) =>
        s.kind === 'task' && s.checkout.checkout_id === checkout.checkout_id ? { ...s, checkout: { ...s.checkout, labels } } : s,
      );
    }
    setBusy(null);
    setFailure({ title: 'The labels of this project changed', errors: [{ field: 'root', detail: labelsChangedMessage(refused, boxes, labels) }] });
  }, []);

  // More boxes than the task takes: the server's message is shown, the boxes and draft stay, and the page
  // learns the task's max_boxes (a checkout from an older API lacked it), so Submit waits within it.
  const learnMaxBoxes = useCallback(async (checkout: CheckoutResponse, error: unknown) => {
    const max = await currentMaxBoxes(checkout.checkout_id);
    if (!alive.current || openLease.current !== checkout.checkout_id) return;
    if (max !== null) {
      setState((s) =>
        s.kind === 'task' && s.checkout.checkout_id === checkout.checkout_id ? { ...s, checkout: { ...s.checkout, max_boxes: max } } : s,
      );
    }
    setBusy(null);
    setFailure({ title: 'The task was not submitted', errors: errorItems(error) });
  }, []);

  /** Submits the boxes; then the next task, or with `stop` no new lease (onStopped). */
  const submit = useCallback(
    async (checkout: CheckoutResponse, boxes: Box[], image: { width: number; height: number }, stop = false) => {
      stopAfter.current = stop;
      const answered = sendFor(checkout, 'submit');
      let reward: number;
      try {
        ({ reward } = await workApi.submit(checkout.checkout_id, { annotations: boxes, image_width: image.width, image_height: image.height }));
      } catch (error) {
        const late = answered();
        const outcome = leaseOutcomeOf(error);
        if (outcome === 'submitted') return done(checkout, ALREADY_SUBMITTED_NOTICE);
        if (outcome) return end(checkout, outcome, boxes.length);
        const noAnswer = mayHaveArrived(error);
        unsureFor.current = noAnswer ? checkout.checkout_id : null;
        if (late) return noAnswer ? readBack(checkout, boxes.length) : giveBack(checkout, boxes.length);
        if (refusedForBoxCount(error)) return learnMaxBoxes(checkout, error);
        const refused = refusedLabels(error, boxes);
        if (refused) return relabel(checkout, boxes, refused);
        setBusy(null);
        // The draft stays: a retry sends these same boxes, which the server answers with the first result.
        setFailure(noAnswer ? NO_ANSWER : { title: 'The task was not submitted', errors: errorItems(error) });
        return;
      }
      answered();
      await done(checkout, submittedNotice(boxes.length, reward));
    },
    [done, end, giveBack, learnMaxBoxes, readBack, relabel, sendFor],
  );

  /** Gives the task back and takes the next; with `problem`, reports what is wrong with it ("Report and skip"). */
  const skip = useCallback(
    async (checkout: CheckoutResponse, problem?: TaskProblem) => {
      stopAfter.current = false;
      const answered = sendFor(checkout, 'skip');
      let leaseState: string;
      try {
        ({ state: leaseState } = await workApi.release(checkout.checkout_id, problem));
      } catch (error) {
        const late = answered();
        const outcome = leaseOutcomeOf(error);
        if (outcome === 'submitted') return done(checkout, ALREADY_SUBMITTED_NOTICE);
        if (outcome) return end(checkout, outcome, 0);
        // The countdown ended while the Skip was out: end the task as the countdown would have.
        if (late) return unsureFor.current === checkout.checkout_id ? readBack(checkout, 0) : giveBack(checkout, 0, problem);
        // Without an answer the Skip may have arrived: the lease's state says, rather than "not skipped",
        // which left the worker drawing on a task given back (a Submit then threw those boxes away).
        if (mayHaveArrived(error)) {
          const now = await leaseOutcomeNow(checkout.checkout_id);
          if (!alive.current) return;
          if (now === 'released') return done(checkout, SKIPPED_NOTICE);
          if (now === 'submitted') return done(checkout, ALREADY_SUBMITTED_NOTICE);
          if (now) return end(checkout, now, 0);
        }
        setBusy(null);
        setFailure({ title: 'The task was not skipped', errors: errorItems(error) });
        return;
      }
      answered();
      // A release answers 200 with the lease's state, also when the requester had already cancelled the task.
      await done(checkout, leaseState === 'cancelled' ? SKIPPED_CANCELLED_NOTICE : SKIPPED_NOTICE);
    },
    [done, end, giveBack, readBack, sendFor],
  );

  return {
    state,
    notice: withEarlier(notice, earlierDrafts),
    busy,
    failure,
    next: () => next(null),
    /** Tries the checkout again after it failed, keeping what was said of the previous task (a submit's reward). */
    retry: () => next(notice),
    submit,
    skip,
    expire,
    keepDraft,
    watchOtherTabs,
    dismissNotice: () => {
      setNotice(null);
      setEarlierDrafts(null);
    },
  };
}

/** The lease life cycle as the page uses it. */
export type TaskLease = ReturnType<typeof useTaskLease>;
