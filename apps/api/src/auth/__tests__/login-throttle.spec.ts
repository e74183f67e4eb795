import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config/config.schema';
import { FAILURES_PER_ADDRESS, LoginThrottle, type LoginAttempt } from '../login-throttle';

/** LoginThrottle on its own: what a burst of parallel reservations gets, with Redis and while it is away. */
describe('LoginThrottle.reserve', () => {
  let redis: Redis;
  let away: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
    // Nothing listens on port 1; without the offline queue every command fails at once, as in an outage.
    away = new Redis({ port: 1, lazyConnect: true, enableOfflineQueue: false, retryStrategy: () => null });
  });
  afterAll(async () => {
    await redis.quit();
    away.disconnect();
  });

  const throttle = (client: Redis) =>
    new LoginThrottle(client, { REDIS_PREFIX: `cbtest:${randomBytes(4).toString('hex')}`, FAILED_LOGINS_PER_ADDRESS_PER_15_MINUTES: 50 } as AppConfig);
  const burst = (limiter: LoginThrottle, n: number) => Promise.allSettled(Array.from({ length: n }, () => limiter.reserve('ada@example.com', '203.0.113.9')));
  const granted = (results: PromiseSettledResult<unknown>[]) => results.filter(({ status }) => status === 'fulfilled').length;

  it.each([
    ['in Redis', () => redis],
    ['in the in-process stand-in while Redis is away', () => away],
  ])('grants at most the limit of a parallel burst %s, and a success gives its point back', async (_, client) => {
    const limiter = throttle(client());
    const first = await burst(limiter, 3 * FAILURES_PER_ADDRESS);
    expect(granted(first)).toBe(FAILURES_PER_ADDRESS);
    const refused = first.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(refused?.reason).toMatchObject({ status: 429, headers: { 'retry-after': expect.stringMatching(/^[1-9]\d*$/) } });
    // The refused reservations took nothing: one success frees the address for another full limit.
    const attempt = first.find((result): result is PromiseFulfilledResult<LoginAttempt> => result.status === 'fulfilled');
    await attempt?.value.succeeded();
    expect(granted(await burst(limiter, 3 * FAILURES_PER_ADDRESS))).toBe(FAILURES_PER_ADDRESS);
  });
});
