/** A request's turn at a receiver: go (and give the slot back when done), or the receiver is busy. */
export type Turn = { release: () => void } | { busyForMs: number };

/**
 * How long work that found its slots busy waits in the queue before it tries again: between 1 s and a
 * minute, as long as the oldest request in flight has been held, plus up to half again (spread), so a
 * stuck receiver's backlog comes back as a trickle, not a busy loop.
 */
export function deferralMs(busyForMs: number): number {
  return Math.round(Math.min(60_000, Math.max(1000, busyForMs)) * (1 + Math.random() / 2));
}

interface Receiver {
  /** Requests in flight, by when each started; a Map keeps that order, so the first is the oldest. */
  inFlight: Map<symbol, number>;
  waiting: Array<() => void>;
}

/**
 * How many requests this process has in flight to each receiver (keyed by origin), with a first-come
 * queue for the rest. The sender takes a turn before it starts a request's clock, so the time a delivery
 * spends waiting behind others to the same receiver is not counted against the receiver's 10 s.
 *
 * A delivery waits at most its patience. A receiver that keeps every slot busy for longer than that
 * (its oldest request in flight has run longer) is slow, not merely loaded, and a delivery for it is
 * told so at once: it goes back to the queue and leaves its worker slot to other receivers' events,
 * instead of holding it until the slow receiver's requests time out.
 * The challenge worker keys the same slots by account as well (webhook-challenge.processor.ts).
 * (A keyed semaphore with a deadline is a few lines; the libraries offer one semaphore, and the map
 * would still be ours.)
 */
export class ReceiverSlots {
  private readonly receivers = new Map<string, Receiver>();

  constructor(
    private readonly perReceiver: number,
    private readonly now: () => number = Date.now,
  ) {}

  take(origin: string, patienceMs = Infinity): Promise<Turn> {
    let receiver = this.receivers.get(origin);
    if (!receiver) {
      receiver = { inFlight: new Map(), waiting: [] };
      this.receivers.set(origin, receiver);
    }
    if (receiver.inFlight.size < this.perReceiver) return Promise.resolve(this.admit(origin, receiver));
    const busyForMs = this.busyFor(receiver);
    if (busyForMs > patienceMs) return Promise.resolve({ busyForMs });
    const r = receiver;
    return new Promise<Turn>((resolve) => {
      const admit = () => {
        clearTimeout(timer);
        resolve(this.admit(origin, r));
      };
      const timer = Number.isFinite(patienceMs)
        ? setTimeout(() => {
            r.waiting.splice(r.waiting.indexOf(admit), 1);
            resolve({ busyForMs: this.busyFor(r) });
          }, patienceMs)
        : undefined;
      r.waiting.push(admit);
    });
  }

  /** How long the receiver has been sitting on its oldest request in flight. */
  private busyFor(receiver: Receiver): number {
    const oldest = receiver.inFlight.values().next().value;
    return oldest === undefined ? 0 : this.now() - oldest;
  }

  /** Counts the request in at once (synchronously), so no newcomer can take the slot in between. */
  private admit(origin: string, receiver: Receiver): Turn {
    const token = Symbol();
    receiver.inFlight.set(token, this.now());
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        receiver.inFlight.delete(token);
        const next = receiver.waiting.shift();
        if (next) next();
        else if (receiver.inFlight.size === 0) this.receivers.delete(origin);
      },
    };
  }
}
