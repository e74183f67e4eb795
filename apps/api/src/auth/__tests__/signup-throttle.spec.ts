import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { ApiException } from '../../common/errors/api.exception';
import type { AppConfig } from '../../config/config.schema';
import { SignupThrottle } from '../signup-throttle';

/** SignupThrottle against the real Redis; its window is an hour, so the passing of it is simulated on Date.now. */
describe('SignupThrottle: a sign-up that failed without an answer gives its point back', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
  });
  afterAll(() => redis.quit());

  const throttle = () => {
    const prefix = `cbtest:${randomBytes(4).toString('hex')}`;
    const limiter = new SignupThrottle(redis, { REDIS_PREFIX: prefix, SIGNUPS_PER_ADDRESS_PER_HOUR: 3 } as AppConfig);
    const consumed = async () => Number(await redis.get(`${prefix}:signup-address:203.0.113.9`));
    return { limiter, consumed };
  };
  const fails = () => Promise.reject(new Error('database unreachable'));

  it('within the window it came from', async () => {
    const { limiter, consumed } = throttle();
    await expect(limiter.limit('203.0.113.9', async () => 'created')).resolves.toBe('created');
    await expect(limiter.limit('203.0.113.9', fails)).rejects.toThrow('database unreachable');
    expect(await consumed()).toBe(1);
  });

  it('but not when it was answered: "is already registered" tells which emails have accounts', async () => {
    const { limiter, consumed } = throttle();
    const taken = () => Promise.reject(ApiException.unprocessable('email', 'is already registered; log in instead'));
    await expect(limiter.limit('203.0.113.9', taken)).rejects.toThrow('is already registered');
    expect(await consumed()).toBe(1);
  });

  it('but not into the next one: a refund after the window ended would leave the next below zero', async () => {
    const { limiter, consumed } = throttle();
    const now = Date.now();
    const clock = jest.spyOn(Date, 'now');
    try {
      await expect(
        limiter.limit('203.0.113.9', async () => {
          // The hour ends while the account is being written (scrypt, a busy database). Well past its end:
          // the window began when Redis took the point, a few ms after `now`.
          clock.mockReturnValue(now + 60 * 60 * 1000 + 60_000);
          throw new Error('database unreachable');
        }),
      ).rejects.toThrow('database unreachable');
    } finally {
      clock.mockRestore();
    }
    // The point stays taken in this (in Redis, still live) window: nothing was given back.
    expect(await consumed()).toBe(1);
  });
});
