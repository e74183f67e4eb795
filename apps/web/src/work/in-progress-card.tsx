import type { CheckoutResponse, ErrorItem } from '@crowdbox/contracts';
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { Link } from 'react-router';
import { errorItems } from '../api/client';
import { workApi } from '../api/work.api';
import { DateTime } from '../console/components/date-time';
import { ErrorList } from '../shell/error-list';
import { formatCents } from '../shell/format';
import { clearDraft, loadDraft } from './draft-store';
import { leaseOutcomeOf } from './lease-end';

interface Props {
  checkout: CheckoutResponse;
  userId: string;
  /**
   * The lease is no longer this worker's: `true` when this card gave it back, `false` when the server said
   * it had ended already (submitted, expired…; the work list settles its draft and says what became of it).
   */
  onGone: (gaveBack: boolean) => void;
}

/**
 * A task the worker holds, on the work list: Resume it, or Give back (POST …/release) to free its slot
 * now instead of when its time runs out. With boxes drawn on it (a draft on this device), Give back asks
 * first, in the card, as Skip does on the task page (skip-confirm.tsx).
 */
export function InProgressCard({ checkout, userId, onGone }: Props) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<ErrorItem[] | null>(null);
  const titleId = useId();
  // "Keep it" (or Escape) puts the focus back on Give back, not on the page body.
  const giveBackButton = useRef<HTMLButtonElement>(null);
  const refocus = useRef(false);
  useEffect(() => {
    if (confirming || !refocus.current) return;
    refocus.current = false;
    giveBackButton.current?.focus();
  }, [confirming]);
  const keep = () => {
    refocus.current = true;
    setConfirming(false);
  };
  const boxes = loadDraft(userId, checkout.checkout_id)?.boxes.length ?? 0;
  const them = boxes === 1 ? 'box' : 'boxes';

  const giveBack = async () => {
    if (busy) return;
    // The confirm's button goes with it: the focus goes back to Give back ("Giving back…", aria-disabled so
    // it keeps the focus), where it stays beside the error if the give-back fails.
    if (confirming) refocus.current = true;
    setConfirming(false);
    setBusy(true);
    setErrors(null);
    try {
      await workApi.release(checkout.checkout_id);
    } catch (error) {
      setBusy(false);
      if (leaseOutcomeOf(error)) return onGone(false);
      setErrors(errorItems(error));
      return;
    }
    clearDraft(userId, checkout.checkout_id);
    onGone(true);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape') keep();
  };

  return (
    <li className="card project-card in-progress" data-testid="active-checkout">
      <h3>Task in progress</h3>
      <p className="muted">
        {/* With its date and zone: a lease may run 24 h, and a time of day alone read as earlier today. */}
        Reserved for you until <DateTime iso={checkout.expires_at} />.
        {boxes > 0 && ` ${boxes} ${them} drawn on this device.`}
      </p>
      {errors && <ErrorList errors={errors} title="The task was not given back" />}
      {confirming ? (
        <div className="alert warning give-back-confirm" role="group" aria-labelledby={titleId} onKeyDown={onKeyDown} data-testid="give-back-confirm">
          <p id={titleId}>
            <strong>
              Give back this task and throw away your {boxes} {them}?
            </strong>
          </p>
          <div className="actions">
            <button type="button" className="button" onClick={keep} autoFocus>
              Keep it
            </button>
            <button type="button" className="button danger" onClick={() => void giveBack()}>
              Give back and throw away {boxes} {them}
            </button>
          </div>
        </div>
      ) : (
        <div className="project-card-footer">
          <span className="reward">{formatCents(checkout.reward)}</span>
          <button ref={giveBackButton} type="button" className="button" aria-disabled={busy || undefined} onClick={() => !busy && (boxes > 0 ? setConfirming(true) : void giveBack())}>
            {busy ? 'Giving back…' : 'Give back'}
          </button>
          <Link className="button primary" to={`/work/${checkout.project_uuid}`}>
            Resume
          </Link>
        </div>
      )}
    </li>
  );
}
