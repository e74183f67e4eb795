import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { ApiException } from '../../common/errors/api.exception';
import { BlockRateLimiter, rateLimitBlock } from '../block-rate-limiter';

/** The shared bucket in the real Redis; two limiter instances stand for two HTTP nodes. */
describe('BlockRateLimiter: tokens taken from Redis in blocks', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(() => redis.quit());

  const node = (prefix: string, requests: number, block?: number) => new BlockRateLimiter(redis, `${prefix}:rate`, requests, 60, block);

  /** Runs the calls at once and counts how many passed and how many were refused with 429. */
  async function outcomes(calls: Array<Promise<void>>): Promise<{ passed: number; limited: number }> {
    const settled = await Promise.allSettled(calls);
    for (const s of settled) {
      if (s.status === 'rejected' && !(s.reason instanceof ApiException && s.reason.status === 429)) throw s.reason;
    }
    return { passed: settled.filter((s) => s.status === 'fulfilled').length, limited: settled.filter((s) => s.status === 'rejected').length };
  }

  const counted = async (prefix: string, key: string) => Number(await redis.get(`${prefix}:rate:${key}`));

  it('asks Redis once per block, not once per request', async () => {
    const prefix = `cbtest:${randomBytes(4).toString('hex')}`;
    const limiter = node(prefix, 100, 5);
    for (let i = 0; i < 12; i++) await limiter.consume('key-a');
    // 12 requests took three blocks of 5.
    expect(await counted(prefix, 'key-a')).toBe(15);
  });

  it('concurrent requests share one reservation', async () => {
    const prefix = `cbtest:${randomBytes(4).toString('hex')}`;
    const limiter = node(prefix, 1000, 50);
    expect(await outcomes(Array.from({ length: 40 }, () => limiter.consume('key-b')))).toEqual({ passed: 40, limited: 0 });
    expect(await counted(prefix, 'key-b')).toBe(50);
  });

  it('two nodes together never pass more than the limit, and spend the last partial block', async () => {
    const prefix = `cbtest:${randomBytes(4).toString('hex')}`;
    const [a, b] = [node(prefix, 98, 5), node(prefix, 98, 5)];
    const calls = Array.from({ length: 150 }, (_, i) => (i % 2 === 0 ? a : b).consume('key-c'));
    const { passed, limited } = await outcomes(calls);
    // Up to block - 1 unspent tokens may sit on the node that took them; never one more than the limit.
    expect(passed).toBeLessThanOrEqual(98);
    expect(passed).toBeGreaterThanOrEqual(98 - 4);
    expect(limited).toBe(150 - passed);
  });

  it('one node spends every token of the window, then answers 429 with Retry-After', async () => {
    const prefix = `cbtest:${randomBytes(4).toString('hex')}`;
    const limiter = node(prefix, 98, 5);
    // 98 is not a multiple of 5: the 20th reservation gets the 3 tokens left.
    expect(await outcomes(Array.from({ length: 120 }, () => limiter.consume('key-d')))).toEqual({ passed: 98, limited: 22 });
    const refused = await limiter.consume('key-d').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiException);
    expect((refused as ApiException).errors).toEqual([{ field: 'root', detail: expect.stringMatching(/retry in \d+ s/) }]);
    expect(Number((refused as ApiException).headers['retry-after'])).toBeGreaterThan(0);
  });

  it('keys have their own buckets', async () => {
    const prefix = `cbtest:${randomBytes(4).toString('hex')}`;
    const limiter = node(prefix, 3, 1);
    expect(await outcomes(Array.from({ length: 4 }, () => limiter.consume('key-e')))).toEqual({ passed: 3, limited: 1 });
    expect(await outcomes(Array.from({ length: 3 }, () => limiter.consume('key-f')))).toEqual({ passed: 3, limited: 0 });
  });

  it('while Redis is away, an in-process stand-in holds the same limit and no request fails otherwise', async () => {
    // Nothing listens on port 1; without the offline queue every command fails at once, as in an outage.
    const away = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
    try {
      const limiter = new BlockRateLimiter(away, 'cbtest:away:rate', 30, 60, 4);
      expect(await outcomes(Array.from({ length: 40 }, () => limiter.consume('key-g')))).toEqual({ passed: 30, limited: 10 });
    } finally {
      away.disconnect();
    }
  });

  it('the default block is 5 % of the limit, between 1 and 100, and exact for small limits', () => {
    expect(rateLimitBlock(100, undefined)).toBe(5);
    expect(rateLimitBlock(39, undefined)).toBe(1);
    expect(rateLimitBlock(3, undefined)).toBe(1);
    expect(rateLimitBlock(100_000_000, undefined)).toBe(100);
    expect(rateLimitBlock(10, 50)).toBe(10);
    expect(rateLimitBlock(100, 1)).toBe(1);
  });
});
