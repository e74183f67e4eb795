import { useEffect, useRef, useState } from 'react';
import { serverClockOffset } from '../api/client';
import { formatClock } from '../shell/format';

const secondsUntil = (deadline: number): number => (deadline - (Date.now() + serverClockOffset())) / 1000;

/** Seconds left until `expiresAt` (server time), updated a few times a second. */
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
