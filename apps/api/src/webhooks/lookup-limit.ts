import type { LookupAddress, LookupAllOptions } from 'node:dns';

type LookupCallback = (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void;

/** dns.lookup's form that this module calls: every address of a name. */
export type LookupAll = (hostname: string, options: LookupAllOptions, callback: LookupCallback) => void;

/** A limited lookup: `waitMs` is how long this one may wait for its turn. */
export type LimitedLookup = (hostname: string, options: LookupAllOptions, waitMs: number, callback: LookupCallback) => void;

/**
 * dns.lookup is getaddrinfo on libuv's thread pool (4 threads by default), which scrypt (log-in,
 * sign-up) and file reads share. A lookup cannot be cancelled: a receiver whose name server answers
 * in 10 s holds a thread 10 s, though the connect gave up at 3 s. Names chosen to resolve slowly, a
 * few per second, would take every thread and stall log-ins and every other receiver's deliveries.
 * So at most `max` lookups run at once; the others wait their turn for at most `waitMs` (the connect
 * timeout: the socket that asked is gone by then) and then fail with ETIMEOUT without running.
 */
export function limitLookups(lookup: LookupAll, max: number): LimitedLookup {
  let running = 0;
  const waiting: Array<{ start: () => void; timer: NodeJS.Timeout }> = [];
  const next = () => {
    running -= 1;
    const turn = waiting.shift();
    if (turn) {
      clearTimeout(turn.timer);
      turn.start();
    }
  };
  return (hostname, options, waitMs, callback) => {
    const start = () => {
      running += 1;
      lookup(hostname, options, (error, addresses) => {
        next();
        callback(error, addresses);
      });
    };
    if (running < max) return start();
    const turn = {
      start,
      timer: setTimeout(() => {
        waiting.splice(waiting.indexOf(turn), 1);
        const error: NodeJS.ErrnoException = new Error(`lookup of ${hostname} waited ${waitMs} ms for a free resolver; not started`);
        error.code = 'ETIMEOUT';
        callback(error, []);
      }, waitMs),
    };
    waiting.push(turn);
  };
}
