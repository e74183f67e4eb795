/**
 * How many requests this process has in flight to each receiver (keyed by origin), with a first-come
 * queue for the rest. The sender takes a slot before it starts a request's clock, so the time a delivery
 * spends waiting behind others to the same receiver is not counted against the receiver's 10 s.
 * (A keyed semaphore is a few lines; the libraries offer one semaphore, and the map would still be ours.)
 */
export class ReceiverSlots {
  private readonly receivers = new Map<string, { active: number; waiting: Array<() => void> }>();

  constructor(private readonly perReceiver: number) {}

  /** Resolves with the function that gives the slot back, once one is free for `origin`. */
  async acquire(origin: string): Promise<() => void> {
    let receiver = this.receivers.get(origin);
    if (!receiver) {
      receiver = { active: 0, waiting: [] };
      this.receivers.set(origin, receiver);
    }
    if (receiver.active < this.perReceiver) receiver.active += 1;
    else await new Promise<void>((resolve) => receiver.waiting.push(resolve));
    return once(() => this.release(origin));
  }

  private release(origin: string): void {
    const receiver = this.receivers.get(origin);
    if (!receiver) return;
    const next = receiver.waiting.shift();
    // The slot passes straight to the next in line (active stays), so a newcomer cannot jump the queue.
    if (next) next();
    else if (--receiver.active === 0) this.receivers.delete(origin);
  }
}

function once(fn: () => void): () => void {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
}
