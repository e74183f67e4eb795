import { setTimeout as sleep } from 'node:timers/promises';
import { TtlCache } from '../ttl-cache';

/** A load that answers when told to, counting its calls. */
function controlledLoad<V>() {
  const calls: Array<(value: V | undefined) => void> = [];
  const load = () => new Promise<V | undefined>((resolve) => calls.push(resolve));
  return { load, calls };
}

describe('TtlCache', () => {
  it('makes one load for concurrent misses of a key and answers them all with it', async () => {
    const cache = new TtlCache<string, { n: number }>(5_000, 10);
    const { load, calls } = controlledLoad<{ n: number }>();
    const answers = Promise.all(Array.from({ length: 50 }, () => cache.get('p', load)));
    expect(calls).toHaveLength(1);
    calls[0]({ n: 1 });
    expect((await answers).every((a) => a?.n === 1)).toBe(true);
    expect(await cache.get('p', () => Promise.reject(new Error('not loaded again')))).toEqual({ n: 1 });
  });

  it('answers undefined without keeping it', async () => {
    const cache = new TtlCache<string, { n: number }>(5_000, 10);
    expect(await cache.get('missing', async () => undefined)).toBeUndefined();
    expect(await cache.get('missing', async () => ({ n: 2 }))).toEqual({ n: 2 });
  });

  it('loads again after the time to live', async () => {
    const cache = new TtlCache<string, { n: number }>(30, 10);
    await cache.get('k', async () => ({ n: 1 }));
    await sleep(60);
    expect(await cache.get('k', async () => ({ n: 2 }))).toEqual({ n: 2 });
  });

  it('keeps the weight of its entries under maxSize when given one, whatever their count', async () => {
    const cache = new TtlCache<string, { text: string }>(60_000, 1_000, { maxSize: 1_000, sizeOf: (v) => v.text.length });
    for (let i = 0; i < 10; i++) await cache.get(`big-${i}`, async () => ({ text: 'x'.repeat(300) }));
    const kept = Array.from({ length: 10 }, (_, i) => cache.peek(`big-${i}`)).filter(Boolean);
    expect(kept).toHaveLength(3);
    expect(cache.peek('big-9')).toBeDefined();
  });

  it('keeps at most max entries, so unknown keys cannot grow the heap', async () => {
    const cache = new TtlCache<string, { n: number }>(60_000, 100);
    for (let i = 0; i < 1_000; i++) await cache.get(`made-up-${i}`, async () => ({ n: i }));
    const kept = Array.from({ length: 1_000 }, (_, i) => cache.peek(`made-up-${i}`)).filter(Boolean);
    expect(kept).toHaveLength(100);
    expect(cache.peek('made-up-999')).toEqual({ n: 999 });
  });

  it('keeps the value of a load that a delete overtook out of the cache', async () => {
    const cache = new TtlCache<string, { v: string }>(5_000, 10);
    const { load, calls } = controlledLoad<{ v: string }>();
    const stale = cache.get('p', load);
    cache.delete('p');
    calls[0]({ v: 'before the update' });
    expect(await stale).toEqual({ v: 'before the update' });
    expect(await cache.get('p', async () => ({ v: 'after' }))).toEqual({ v: 'after' });
  });

  it('deleteWhere forgets matching entries and keeps loads in flight out', async () => {
    const cache = new TtlCache<string, { session: string }>(5_000, 10);
    await cache.get('a', async () => ({ session: 's1' }));
    await cache.get('b', async () => ({ session: 's2' }));
    const { load, calls } = controlledLoad<{ session: string }>();
    const inFlight = cache.get('c', load);
    cache.deleteWhere((v) => v.session === 's1');
    calls[0]({ session: 's1' });
    await inFlight;
    expect(cache.peek('a')).toBeUndefined();
    expect(cache.peek('b')).toEqual({ session: 's2' });
    expect(cache.peek('c')).toBeUndefined();
  });

  it('with a time to live of 0 keeps nothing but still shares concurrent loads', async () => {
    const cache = new TtlCache<string, { n: number }>(0, 10);
    let loads = 0;
    const load = async () => ({ n: ++loads });
    await Promise.all([cache.get('k', load), cache.get('k', load)]);
    expect(loads).toBe(1);
    await cache.get('k', load);
    expect(loads).toBe(2);
    expect(cache.peek('k')).toBeUndefined();
  });

  it('passes a failed load to every waiter and tries again next time', async () => {
    const cache = new TtlCache<string, { n: number }>(5_000, 10);
    const failing = () => Promise.reject(new Error('database away'));
    await expect(Promise.all([cache.get('k', failing), cache.get('k', failing)])).rejects.toThrow('database away');
    expect(await cache.get('k', async () => ({ n: 1 }))).toEqual({ n: 1 });
  });
});
