/** Polls until `check` returns a truthy value or the time is up (then returns the last value). */
export async function eventually<T>(check: () => T | Promise<T>, timeoutMs = 10_000, everyMs = 50): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
