/** Polls `check` until it returns true, or fails with what was awaited (and what was seen last). */
export async function expectEventually(
  check: () => Promise<boolean>,
  what: string,
  describe?: () => Promise<string>,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) {
      const seen = describe ? ` (saw ${await describe()})` : '';
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${seen}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}
