import { useEffect, useRef, useState } from 'react';
import { serverClockOffset } from '../api/server-clock';
import { formatClock } from '../shell/format';

/**
 * How long before the server's deadline the page ends a lease. The server refuses a submit that arrives
 * even 1 ms after expires_at, so the last submit the page allows has this long to get there
 * (docs/annotator.md, "In the worker app").
 */
export const SUBMIT_MARGIN_MS = 2000;

const secondsUntil = (deadline: number): number => (deadline - SUBMIT_MARGIN_MS - (Date.now() + serverClockOffset())) / 1000;

/** Seconds left to submit before `expiresAt` (server time), less SUBMIT_MARGIN_MS; updated a few times a second. */
export function useSecondsLeft(expiresAt: string): number {
  const deadline = Date.parse(expiresAt);
  const [left, setLeft] = useState(() => secondsUntil(deadline));
  useEffect(() => {
    const tick = () => setLeft(secondsUntil(deadline));
    tick();
    const timer = window.setInterval(tick, 250);
    return () => window.clearInterval(timer);
  }, [deadline]);
  return left;
}

export const WARNING_SECONDS = 60;

/**
 * The time left on a lease. In the last minute it turns to a warning and says so once to screen
 * readers; at zero it calls `onExpired` once.
 */
export function Countdown({ expiresAt, onExpired }: { expiresAt: string; onExpired: () => void }) {
  const left = useSecondsLeft(expiresAt);
  const warned = left <= WARNING_SECONDS;
  const expiredRef = useRef(false);
  useEffect(() => {
    if (left <= 0 && !expiredRef.current) {
      expiredRef.current = true;
      onExpired();
    }
  }, [left, onExpired]);

  return (
    <div className={`countdown${warned ? ' warning' : ''}`} data-testid="countdown" data-warning={warned || undefined}>
      <span className="countdown-label">Time left</span>
      <span className="countdown-clock" aria-hidden="true">
        {formatClock(left)}
      </span>
      <span className="visually-hidden" aria-live="polite">
        {warned && left > 0 ? 'Less than one minute left: submit now.' : ''}
      </span>
      {warned && left > 0 && <span className="countdown-hint">Less than a minute left: submit now.</span>}
    </div>
  );
}
