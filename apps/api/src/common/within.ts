/**
 * What `promise` settles to, or `fallback` when it has not settled within `ms`; the promise itself is
 * left to finish or fail on its own. The timer is cleared either way: `Promise.race([promise,
 * sleep(ms)])` leaves the sleep's timer running once the promise wins, which keeps a process (or a Jest
 * worker) alive until it fires.
 */
export async function within<T, F>(promise: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
