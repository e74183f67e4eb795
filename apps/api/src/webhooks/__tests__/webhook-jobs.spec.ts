import { ADD_CHUNK, addInChunks } from '../webhook-jobs';

/**
 * Many jobs are added ADD_CHUNK at a time: each add's command times out REDIS_COMMAND_TIMEOUT_MS after it
 * is queued, so a page of 1,000 queued at once failed the relay's pass on a busy host (webhook-jobs.ts).
 */
describe('addInChunks', () => {
  const ids = Array.from({ length: 1_000 }, (_, i) => `event-${i}`);

  it(`adds every id, never more than ${ADD_CHUNK} in flight, in order`, async () => {
    let inFlight = 0;
    let most = 0;
    const added: string[] = [];
    await addInChunks(ids, async (id) => {
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      added.push(id);
      inFlight--;
    });
    expect(added).toEqual(ids);
    expect(most).toBe(ADD_CHUNK);
  });

  it('stops at the chunk that failed, with its error', async () => {
    const tried: string[] = [];
    const failing = addInChunks(ids, async (id) => {
      tried.push(id);
      if (id === 'event-150') throw new Error('Command timed out');
    });
    await expect(failing).rejects.toThrow('Command timed out');
    expect(tried).toHaveLength(2 * ADD_CHUNK);
  });
});
