/**
 * What `promise` settles to, or `fallback` when it has not settled within `ms`. The timer is cleared
 * either way: `Promise.race([promise, sleep(ms)])` leaves the sleep's timer running once the promise
 * wins, and a file that ends before that timer fires keeps its Jest worker alive at the end of the run
 * ("A worker process has failed to exit gracefully and has been force exited").
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
