import { randomUUID } from 'node:crypto';
import { eventually } from '../../../test/eventually';
import { aRequester } from '../../../test/factories';
import { freePort } from '../../../test/free-port';
import { startTestApp, type TestApp } from '../../../test/test-app';
import type { JobType, Queue } from 'bullmq';
import { Registry } from 'prom-client';
import { pgPool } from '../../database/prepared-statement';
import { ProducerQueues } from '../../queues/producer-queues';
import { REDIS } from '../../redis/redis.module';
import { MetricsService } from '../metrics.service';

const TOKEN = 'metrics-token-for-tests';

/** The value of one sample in Prometheus's text format, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('is off unless METRICS_TOKEN is set', async () => {
    const t = await startTestApp();
    try {
      const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ errors: [{ field: 'root', detail: 'metrics are off: set METRICS_TOKEN to serve them' }] });
    } finally {
      await t.close();
    }
  });

  describe('with METRICS_TOKEN', () => {
    let t: TestApp;
    beforeAll(async () => {
      // No relay pass: it would hand the overdue events below to jobs and change the figures.
      t = await startTestApp({ METRICS_TOKEN: TOKEN, WEBHOOK_RELAY_INTERVAL_MS: '600000' });
    });
    afterAll(async () => {
      await t.close();
    });

    it('answers only the bearer of the token', async () => {
      for (const authorization of [undefined, 'Bearer wrong-token-of-some-length', TOKEN, `Bearer ${TOKEN}x`]) {
        const res = await t.request({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(res.body.errors).toEqual([{ field: 'authorization', detail: 'send Authorization: Bearer <METRICS_TOKEN>' }]);
      }
    });

    it('reports the webhook backlog, its oldest due event, the addresses and the queues, for the whole system', async () => {
      const r = await aRequester(t);
      const event = (state: string, nextAttempt: string | null) =>
        t.db.query(
          `INSERT INTO webhook_events (id, account_id, type, payload, state, next_attempt_at)
           VALUES ($1, $2, 'task_completed', '{}', $3, now() + $4::interval)`,
          [randomUUID(), r.accountId, state, nextAttempt],
        );
      await event('pending', '-120 seconds');
      await event('pending', '-5 seconds');
      await event('pending', '+1 hour');
      await event('pending', null);
      await event('delivered', null);
      await event('failed', null);
      for (const [state, n] of [['confirmed', 1], ['failed', 2]] as const) {
        for (let i = 0; i < n; i++) {
          await t.db.query(`INSERT INTO webhook_endpoints (id, account_id, url, state) VALUES ($1, $2, $3, $4)`, [
            randomUUID(),
            r.accountId,
            `https://example.com/${state}/${i}`,
            state,
          ]);
        }
      }

      const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      const text = res.text;
      expect(sample(text, 'crowdbox_metrics_source_up{source="postgres"}')).toBe(1);
      expect(sample(text, 'crowdbox_metrics_source_up{source="redis"}')).toBe(1);
      expect(sample(text, 'crowdbox_webhook_events_pending{waiting_for="attempt"}')).toBe(3);
      expect(sample(text, 'crowdbox_webhook_events_pending{waiting_for="confirmation"}')).toBe(1);
      const oldest = sample(text, 'crowdbox_webhook_oldest_due_event_age_seconds') as number;
      expect(oldest).toBeGreaterThanOrEqual(120);
      expect(oldest).toBeLessThan(180);
      expect(sample(text, 'crowdbox_webhook_endpoints{state="confirmed"}')).toBe(1);
      expect(sample(text, 'crowdbox_webhook_endpoints{state="failed"}')).toBe(2);
      expect(sample(text, 'crowdbox_webhook_endpoints{state="pending"}')).toBe(0);
      expect(sample(text, 'crowdbox_queue_jobs{queue="webhook-delivery",state="waiting"}')).toBe(0);
      expect(sample(text, 'crowdbox_queue_jobs{queue="checkout-expiry",state="delayed"}')).toBe(0);
      expect(text).toMatch(/^crowdbox_process_resident_memory_bytes \d+/m);
      expect(text).toMatch(/^crowdbox_nodejs_eventloop_lag_seconds /m);
    });

    it('times each request by method, route pattern (never the URL) and status class', async () => {
      const r = await aRequester(t);
      const ids = [randomUUID(), randomUUID()];
      for (const id of ids) {
        expect((await t.request({ method: 'GET', url: `/api/v1/tasks/${id}`, headers: { apikey: r.liveKey } })).status).toBe(422);
      }
      expect((await t.request({ method: 'GET', url: '/api/v1/ping', headers: { apikey: r.liveKey } })).status).toBe(200);
      expect((await t.request({ method: 'GET', url: '/api/v1/ping' })).status).toBe(401);
      for (const path of ['/no/such/path', `/no/such/${randomUUID()}`]) {
        expect((await t.request({ method: 'GET', url: path })).status).toBe(404);
      }

      const text = (await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).text;
      const count = (labels: string) => sample(text, `crowdbox_http_request_duration_seconds_count{${labels}}`);
      expect(count('method="GET",route="/api/v1/tasks/:uuid",status_class="4xx"')).toBe(2);
      expect(count('method="GET",route="/api/v1/ping",status_class="2xx"')).toBe(1);
      expect(count('method="GET",route="/api/v1/ping",status_class="4xx"')).toBe(1);
      expect(count('method="GET",route="unmatched",status_class="4xx"')).toBe(2);
      // Buckets from 5 ms to 10 s; a request's time is in seconds.
      const buckets = [...text.matchAll(/^crowdbox_http_request_duration_seconds_bucket\{le="([^"]+)",method="GET",route="\/api\/v1\/ping",status_class="2xx"\} (\d+)$/gm)];
      expect(buckets.map(([, le]) => le)).toEqual(['0.005', '0.01', '0.025', '0.05', '0.1', '0.25', '0.5', '1', '2.5', '5', '10', '+Inf']);
      expect(Number(buckets.at(-2)?.[2])).toBe(1);
      expect(sample(text, 'crowdbox_http_request_duration_seconds_sum{method="GET",route="/api/v1/ping",status_class="2xx"}')).toBeLessThan(10);
      // No raw URL anywhere: the ids and the unknown paths are not labels.
      for (const part of [...ids, '/no/such']) expect(text).not.toContain(part);
    });

    it("reports this process's PostgreSQL pool and whether its Redis client is ready", async () => {
      const scrape = async () => (await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } })).text;
      // The shared client may still be connecting right after the boot.
      const text = await eventually(async () => {
        const body = await scrape();
        return sample(body, 'crowdbox_redis_up') === 1 && body;
      }, 5_000);
      expect(text && sample(text, 'crowdbox_redis_up')).toBe(1);
      const pool = pgPool(t.db);
      // Read before the scrape's own query took one of them.
      expect(sample(text as string, 'crowdbox_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text as string, 'crowdbox_db_pool_connections{state="total"}')).toBeLessThanOrEqual(pool.totalCount);
      expect(sample(text as string, 'crowdbox_db_pool_connections{state="idle"}')).toBeGreaterThanOrEqual(1);
      expect(sample(text as string, 'crowdbox_db_pool_connections{state="waiting"}')).toBe(0);
      expect(sample(text as string, 'crowdbox_db_pool_connections{state="max"}')).toBe(pool.options.max);
    });

    it('says which source it could not read, and clears that source’s figures instead of repeating old ones', async () => {
      // The app's real queues, behind a switch that makes Redis "go away" between two scrapes.
      const real = t.app.get(ProducerQueues);
      let redisUp = true;
      const behindSwitch = (queue: Queue) => ({
        name: queue.name,
        getJobCounts: (...states: JobType[]) => (redisUp ? queue.getJobCounts(...states) : Promise.reject(new Error('Connection is closed.'))),
      });
      const metrics = new MetricsService(
        new Registry(),
        t.db,
        {
          webhookDelivery: behindSwitch(real.webhookDelivery),
          webhookChallenge: behindSwitch(real.webhookChallenge),
          checkoutExpiry: behindSwitch(real.checkoutExpiry),
        } as unknown as ProducerQueues,
        t.app.get(REDIS),
        { READYZ_TIMEOUT_MS: 2_000 },
      );
      const before = (await metrics.scrape()).body;
      expect(sample(before, 'crowdbox_metrics_source_up{source="redis"}')).toBe(1);
      expect(before).toMatch(/^crowdbox_queue_jobs\{/m);

      redisUp = false;
      const { body } = await metrics.scrape();
      expect(sample(body, 'crowdbox_metrics_source_up{source="redis"}')).toBe(0);
      expect(sample(body, 'crowdbox_metrics_source_up{source="postgres"}')).toBe(1);
      expect(body).not.toMatch(/^crowdbox_queue_jobs\{/m);
    });
  });

  it('answers within READYZ_TIMEOUT_MS while every pooled connection is busy, and counts the queries waiting for one', async () => {
    const t = await startTestApp({ METRICS_TOKEN: TOKEN, DATABASE_POOL_SIZE: '2', READYZ_TIMEOUT_MS: '500' });
    try {
      // Both connections in a 3 s sleep, and one more query queued behind them.
      const held = Promise.all(['SELECT pg_sleep(3)', 'SELECT pg_sleep(3)', 'SELECT 1'].map((sql) => t.db.query(sql)));
      const pool = pgPool(t.db);
      expect(await eventually(() => pool.totalCount === 2 && pool.waitingCount === 1, 3_000, 10)).toBe(true);

      const from = Date.now();
      const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      const ms = Date.now() - from;
      expect(res.status).toBe(200);
      expect(ms).toBeGreaterThanOrEqual(450);
      expect(ms).toBeLessThan(1_500);
      expect(sample(res.text, 'crowdbox_db_pool_connections{state="total"}')).toBe(2);
      expect(sample(res.text, 'crowdbox_db_pool_connections{state="idle"}')).toBe(0);
      expect(sample(res.text, 'crowdbox_db_pool_connections{state="waiting"}')).toBe(1);
      expect(sample(res.text, 'crowdbox_db_pool_connections{state="max"}')).toBe(2);
      // The backlog's read waited for a connection past its time: said, and its figures left out.
      expect(sample(res.text, 'crowdbox_metrics_source_up{source="postgres"}')).toBe(0);
      expect(res.text).not.toMatch(/^crowdbox_webhook_events_pending\{/m);
      await held;
    } finally {
      await t.close();
    }
  }, 20_000);

  it('stops the backlog\'s statement in the database when the scrape stops waiting for it', async () => {
    const t = await startTestApp({ METRICS_TOKEN: TOKEN, READYZ_TIMEOUT_MS: '500' });
    const locker = await pgPool(t.db).connect();
    try {
      // A statement that cannot finish: the table locked by a migration, say.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE webhook_events IN ACCESS EXCLUSIVE MODE');
      const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(sample(res.text, 'crowdbox_metrics_source_up{source="postgres"}')).toBe(0);
      // Read outside the locker's transaction, whose view of pg_stat_activity is the one it first read.
      const stillWaiting = async () =>
        Number(
          (await t.db.query(`SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE '%AS oldest_due_seconds%' AND pid <> pg_backend_pid()`))[0]
            .count,
        );
      // Without the statement's own timeout it waited for the lock for the pool's 30 s.
      expect(await eventually(async () => (await stillWaiting()) === 0, 3_000, 50)).toBe(true);
    } finally {
      await locker.query('ROLLBACK');
      locker.release();
      await t.close();
    }
  }, 20_000);

  it("reports the Redis client down while Redis is away, in an HTTP process that keeps serving", async () => {
    const t = await startTestApp({ METRICS_TOKEN: TOKEN, REDIS_URL: `redis://127.0.0.1:${await freePort()}` }, { role: 'http' });
    try {
      const res = await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      expect(sample(res.text, 'crowdbox_redis_up')).toBe(0);
      expect(sample(res.text, 'crowdbox_metrics_source_up{source="redis"}')).toBe(0);
    } finally {
      await t.close();
    }
  });
});
