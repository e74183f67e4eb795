import type { DataSource } from 'typeorm';
import type { AppConfig } from '../../config/config.schema';
import { EventRetention } from '../event-retention';

/** The schedule alone: when passes run. What a pass deletes is in event-retention.e2e.spec.ts. */
describe('EventRetention schedule', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  const retention = (days: number) => {
    const r = new EventRetention({} as DataSource, { WEBHOOK_EVENT_RETENTION_DAYS: days } as AppConfig);
    // The pass's work (protected), under prune, which the schedule calls and the shutdown waits for.
    return { r, purge: jest.spyOn(r as unknown as { pass: () => Promise<number> }, 'pass').mockResolvedValue(0) };
  };

  it('runs a pass a minute after boot, then one an hour after each pass ends, until shutdown', async () => {
    const { r, purge } = retention(30);
    r.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(59_999);
    expect(purge).toHaveBeenCalledTimes(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(purge).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(3_600_000);
    expect(purge).toHaveBeenCalledTimes(2);
    await r.beforeApplicationShutdown();
    await jest.advanceTimersByTimeAsync(10 * 3_600_000);
    expect(purge).toHaveBeenCalledTimes(2);
  });

  it('schedules no pass after a shutdown that came while a pass ran', async () => {
    const { r, purge } = retention(30);
    let finish = (_: number) => undefined as void;
    purge.mockImplementationOnce(() => new Promise<number>((resolve) => (finish = resolve)));
    r.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60_000);
    // The shutdown waits for the pass that is running (the database must outlive it), then schedules none.
    let stopped = false;
    const stopping = r.beforeApplicationShutdown().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(1_000);
    expect(stopped).toBe(false);
    finish(0);
    await stopping;
    await jest.advanceTimersByTimeAsync(10 * 3_600_000);
    expect(purge).toHaveBeenCalledTimes(1);
  });

  it('schedules nothing when WEBHOOK_EVENT_RETENTION_DAYS is 0', async () => {
    const { r, purge } = retention(0);
    r.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(10 * 3_600_000);
    expect(purge).not.toHaveBeenCalled();
  });
});
