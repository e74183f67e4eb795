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
/** From here on the page says "less than 5 minutes" once and shows the time left in the tab's title. */
export const SOON_SECONDS = 300;

const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * The time left as the timer's text for screen readers, which changes only now and then: whole minutes
 * (or hours and minutes) while more than SOON_SECONDS are left, then steps of 15 s. Rounded down, so it
 * never promises more time than there is.
 */
export function spokenTimeLeft(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  if (s > SOON_SECONDS) {
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return [h ? plural(h, 'hour') : '', m || !h ? plural(m, 'minute') : ''].filter(Boolean).join(' ');
  }
  const q = Math.floor(s / 15) * 15;
  const m = Math.floor(q / 60);
  const sec = q % 60;
  if (q === 0) return 'less than 15 seconds';
  return [m ? plural(m, 'minute') : '', sec ? plural(sec, 'second') : ''].filter(Boolean).join(' ');
}

/** While `text` is set, the tab's title starts with it (a worker in another tab sees the time running out); restored after. */
function useTitlePrefix(text: string | null): void {
  useEffect(() => {
    if (text === null) return;
    const base = document.title;
    document.title = `${text} · ${base}`;
    return () => {
      document.title = base;
    };
  }, [text]);
}

/**
 * The time left on a lease. The clock ticks for the eye only; screen readers get a timer whose text
 * changes at minute boundaries, then every 15 s (spokenTimeLeft), and two announcements: below 5 minutes
 * (when the lease had more) and in the last minute, which also turns the clock to a warning. In the last
 * 5 minutes the time left leads the tab's title. At zero it calls `onExpired` once.
 */
export function Countdown({ expiresAt, onExpired }: { expiresAt: string; onExpired: () => void }) {
  const left = useSecondsLeft(expiresAt);
  const warned = left <= WARNING_SECONDS;
  const soon = left <= SOON_SECONDS;
  // "Less than 5 minutes" is news only to a worker who had more: a lease resumed with 3 minutes left says nothing of it.
  const hadMore = useRef(left > SOON_SECONDS);
  const expiredRef = useRef(false);
  useEffect(() => {
    if (left <= 0 && !expiredRef.current) {
      expiredRef.current = true;
      onExpired();
    }
  }, [left, onExpired]);
  useTitlePrefix(soon && left > 0 ? `${formatClock(left)} left` : null);

  const announcement = left <= 0 ? '' : warned ? 'Less than one minute left: submit now.' : soon && hadMore.current ? 'Less than 5 minutes left.' : '';
  return (
    <div className={`countdown${warned ? ' warning' : ''}`} data-testid="countdown" data-warning={warned || undefined}>
      <span className="countdown-label" aria-hidden="true">
        Time left
      </span>
      <span className="countdown-clock" aria-hidden="true">
        {formatClock(left)}
      </span>
      <span className="visually-hidden" role="timer" data-testid="countdown-timer">
        Time left: {spokenTimeLeft(left)}
      </span>
      <span className="visually-hidden" aria-live="polite" data-testid="countdown-announcement">
        {announcement}
      </span>
      {warned && left > 0 && <span className="countdown-hint">Less than a minute left: submit now.</span>}
    </div>
  );
}
