import type { Pool } from 'pg';
import { storeBack } from '../stored-consensus';

/**
 * storeBack's writes lag behind a walk that computes faster than the database stores: the walk must wait
 * for them (at most one page written while the next is computed), or every page's texts wait in memory.
 */
describe('storeBack', () => {
  it('holds at most one page waiting to be written when the writes are slower than the walk', async () => {
    let started = 0;
    let ended = 0;
    // A pool whose every UPDATE takes 20 ms.
    const pool = {
      query: () => {
        started++;
        return new Promise((resolve) =>
          setTimeout(() => {
            ended++;
            resolve({ rows: [] });
          }, 20),
        );
      },
    } as unknown as Pool;
    const store = storeBack(pool, 0.5);
    const held: number[] = [];
    for (let page = 0; page < 5; page++) {
      store.computed(`00000000-0000-4000-8000-00000000000${page}`, [['worker', [], 640, 480]]);
      await store.flush();
      // Pages flushed whose write has not ended: the one just started, nothing queued behind it.
      held.push(page + 1 - ended);
    }
    await store.done();
    expect(held).toEqual([1, 1, 1, 1, 1]);
    expect([started, ended]).toEqual([5, 5]);
  });
});
