// Webhook delivery (issue 4): N tasks (10,000) complete through the real path — simulated workers
// check out and submit over HTTP, the submit's transaction writes the task_completed event to the
// outbox and enqueues it on the BullMQ webhook-delivery queue, the API's delivery worker POSTs it to a
// local receiver (bench/lib/webhook-receiver.mjs, a child process) — and the receiver counts what
// arrives, per webhook-id.
//
// Per round, outside the measured window: N tasks (required_submissions 1) are added through
// add_tasks with a callback_url new to the account (/hooks/<round>), so the address is registered
// and confirmed by the challenge the real way: one batch first, then the rest once the console shows
// the address confirmed. Then, measured: the workers (undici Pool, keep-alive, one connection each,
// as in checkout.bench.mjs) loop checkout -> submit until no task is left, and the driver waits until
// the receiver has every event or a drain timeout passes.
//
// From the database afterwards: each event's task completed_at (the submit transaction's now(), the
// same wall clock the receiver's Date.now() reads), its attempts and their status codes. Figures:
//   deliveries/s   events delivered / (last first-arrival - first completion)
//   steady /s      the middle 80 % of first arrivals / the time they span
//   latency        first arrival - completed_at: p50, p99, max
//   lost           events of the round with no arrival after the drain timeout
//   duplicated     arrivals beyond the first per webhook-id, and whether the attempt log shows a retry
// A sample of the bodies is verified with `standardwebhooks` and the account's signing secret.
//
// With --webhook-backlog, each measured round first pauses the webhook-delivery queue (BullMQ's global
// pause, in Redis), completes every task, waits until all their jobs are queued, then resumes it: the
// deliveries then run alone on the cores, so `backlog /s` (events / (last first arrival - resume)) is
// the delivery pipeline's own rate, without completions competing for the CPU. Latency then means
// nothing (the events waited on purpose) and is not a target figure in that mode.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { Pool } from 'undici';
import { ADD_TASKS_BATCH, DEFAULT_PROJECT, addTasksInBulk, call } from './lib/api-setup.mjs';
import { checkpoint, walCounters, withClient } from './lib/db.mjs';
import { formatPerTask, messageCounters } from './lib/message-counters.mjs';
import { countInvariantViolations } from './lib/invariants.mjs';
import { median, medianOf, percentile, perTask } from './lib/stats.mjs';
import { cycleTotals, workerCycle } from './lib/worker-cycle.mjs';
import { startReceiver } from './lib/webhook-receiver.mjs';

/** Polls the console until the address is confirmed; resolves to the seconds it took. */
async function waitConfirmed(url, auth, callbackUrl, timeoutMs = 30_000) {
  const t0 = performance.now();
  for (;;) {
    const res = await call(url, 'GET', '/api/console/webhooks', { headers: auth, expect: 200 });
    const ep = res.data.endpoints.find((e) => e.url === callbackUrl);
    if (ep?.state === 'confirmed') return (performance.now() - t0) / 1000;
    if (ep?.state === 'failed') throw new Error(`callback ${callbackUrl} failed its challenge: ${ep.last_error}`);
    if (performance.now() - t0 > timeoutMs) throw new Error(`callback ${callbackUrl} not confirmed after ${timeoutMs} ms (${JSON.stringify(ep)})`);
    await sleep(50);
  }
}

/**
 * The simulated workers: each loops checkout -> submit on the project until checkout answers 404
 * "no task available" (every task was added before the run, so there is nothing left to wait for), or
 * after its third error. Resolves when all have stopped; `onSubmit` is called after each 201 submit.
 */
async function completeAll(pool, { projectUuid, workers, totals, onSubmit }) {
  const checkoutBody = JSON.stringify({ project_uuid: projectUuid });
  const loop = async (worker) => {
    for (let failures = 0; failures < 3; ) {
      const c = await workerCycle(pool, worker, checkoutBody, totals);
      if (c.noTask) return;
      if (c.error) failures++;
      else if (c.submitted) onSubmit?.();
    }
  };
  await Promise.all(workers.map(loop));
}

/**
 * --webhook-backlog: pauses the webhook-delivery queue now; release(count) waits until `count` jobs are
 * queued (the submits enqueue after their commit), resumes it and answers the wall-clock time of the
 * resume (Date.now(), the receiver's clock).
 */
async function holdDeliveries(redisUrl, prefix) {
  if (!redisUrl || !prefix) throw new Error('--webhook-backlog needs the Redis URL and prefix of the API');
  const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue('webhook-delivery', { connection, prefix: `${prefix}:bull` });
  await queue.pause();
  let resumed = false;
  return {
    async release(count) {
      const deadline = performance.now() + 30_000;
      for (;;) {
        const counts = await queue.getJobCounts('wait', 'paused', 'prioritized', 'delayed');
        const queued = Object.values(counts).reduce((s, n) => s + n, 0);
        if (queued >= count || performance.now() > deadline) break;
        await sleep(50);
      }
      const at = Date.now();
      await queue.resume();
      resumed = true;
      return at;
    },
    async close() {
      if (!resumed) await queue.resume();
      await queue.close();
      connection.disconnect();
    },
  };
}

/**
 * Samples the webhook-delivery queue in Redis every 100 ms (jobs waiting, jobs active): whether
 * deliveries queue up behind the workers (WEBHOOK_CONCURRENCY busy) or are not even fetched.
 * sampler.stop() resolves to { waitingMax, waitingMean, activeMax, activeMean, samples }.
 */
function queueSampler(redisUrl, prefix) {
  if (!redisUrl || !prefix) return { stop: async () => null };
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const key = (k) => `${prefix}:bull:webhook-delivery:${k}`;
  const waiting = [];
  const active = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      try {
        const [[, w], [, a]] = await redis.multi().llen(key('wait')).llen(key('active')).exec();
        waiting.push(w);
        active.push(a);
      } catch {
        // a missed sample
      }
      await sleep(100);
    }
  })();
  const mean = (xs) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : NaN);
  return {
    async stop() {
      stopped = true;
      await done;
      redis.disconnect();
      return {
        waitingMax: Math.max(0, ...waiting),
        waitingMean: Math.round(mean(waiting) * 10) / 10,
        activeMax: Math.max(0, ...active),
        activeMean: Math.round(mean(active) * 10) / 10,
        samples: waiting.length,
      };
    },
  };
}

/** The round's events joined to their tasks, attempts and statuses; times in epoch ms (µs kept). */
async function roundEvents(dbUrl, endpointId) {
  return withClient(dbUrl, async (c) => {
    const events = (
      await c.query(
        `SELECT e.id, e.state, e.attempt_count,
                (extract(epoch FROM t.completed_at) * 1000)::float8 AS completed_ms,
                (extract(epoch FROM e.created_at) * 1000)::float8 AS created_ms,
                (extract(epoch FROM e.delivered_at) * 1000)::float8 AS delivered_ms,
                (SELECT count(*) FROM webhook_attempts a WHERE a.event_id = e.id)::int AS attempts,
                (SELECT count(*) FROM webhook_attempts a WHERE a.event_id = e.id AND a.status_code IS DISTINCT FROM 200)::int AS not200,
                (SELECT min(coalesce(a.status_code::text, a.error)) FROM webhook_attempts a
                  WHERE a.event_id = e.id AND a.status_code IS DISTINCT FROM 200) AS not200_example
           FROM webhook_events e JOIN tasks t ON t.id = e.task_id
          WHERE e.endpoint_id = $1`,
        [endpointId],
      )
    ).rows;
    const tasks = (
      await c.query(
        `SELECT count(*)::int AS tasks, count(completed_at)::int AS completed,
                (extract(epoch FROM min(completed_at)) * 1000)::float8 AS first_ms,
                (extract(epoch FROM max(completed_at)) * 1000)::float8 AS last_ms
           FROM tasks WHERE callback_endpoint_id = $1`,
        [endpointId],
      )
    ).rows[0];
    return { events, tasks };
  });
}

/** One round: add the tasks, confirm the address, complete them all, wait for the deliveries, count. */
async function runRound(ctx, { receiver, pool, tag, count, measured }) {
  const { url, liveKey, projectUuid, workers, dbUrl, auth, log } = ctx;
  const path = `/hooks/${tag}`;
  const callbackUrl = receiver.url(path);
  await receiver.reset();

  // Setup: the first batch registers the address and sends the challenge; the rest follow once confirmed.
  const s0 = performance.now();
  let added = await addTasksInBulk(url, { liveKey, projectUuid, count: Math.min(ADD_TASKS_BATCH, count), requiredSubmissions: 1, callbackUrl });
  const confirmSeconds = await waitConfirmed(url, auth, callbackUrl);
  if (count > added) added += await addTasksInBulk(url, { liveKey, projectUuid, count: count - added, requiredSubmissions: 1, callbackUrl });
  const setupSeconds = (performance.now() - s0) / 1000;
  const endpointId = await withClient(dbUrl, async (c) => (await c.query('SELECT id FROM webhook_endpoints WHERE url = $1', [callbackUrl])).rows[0].id);
  const afterSetup = await receiver.stats();
  if (added !== count) throw new Error(`${tag}: ${added} tasks added of ${count}`);
  if (afterSetup.distinct > 0) throw new Error(`${tag}: ${afterSetup.distinct} events arrived before any task was complete`);
  await checkpoint(ctx.adminUrl);
  await sleep(500);

  // Measured: from the first checkout to the last first arrival (or the drain timeout).
  const totals = cycleTotals();
  // Read before the CPU monitor starts: its connection (a PostgreSQL backend) is not the round's work.
  const walBefore = measured ? await walCounters(ctx.adminUrl) : null;
  const messagesBefore = measured ? await messageCounters({ dbUrl, redisUrl: ctx.redisUrl }) : null;
  const before = measured ? await ctx.monitor?.start() : null;
  const profiling = Boolean(measured && ctx.profileStart);
  if (profiling) ctx.profileStart();
  const held = measured && ctx.backlog ? await holdDeliveries(ctx.redisUrl, ctx.redisPrefix) : null;
  const queue = queueSampler(ctx.redisUrl, ctx.redisPrefix);
  const t0 = performance.now();
  let resumedAtMs = null;
  try {
    for (let pass = 0; totals.submit201 < count && pass < 5; pass++) {
      // Another pass only when a worker stopped on "no task" while tasks were still leased by others
      // that then failed (an error is reported anyway); normally one pass completes every task.
      await completeAll(pool, { projectUuid, workers, totals });
      if (totals.errors > 0) break;
    }
    if (held) resumedAtMs = await held.release(count);
  } finally {
    await held?.close();
  }
  const completedIn = (performance.now() - t0) / 1000;
  let stats = await receiver.stats();
  const drainDeadline = performance.now() + ctx.drainTimeoutSeconds * 1000;
  while (stats.distinct < count && performance.now() < drainDeadline) {
    await sleep(20);
    stats = await receiver.stats();
  }
  const windowSeconds = (performance.now() - t0) / 1000;
  const queueStats = await queue.stop();
  if (profiling) await ctx.profileStop();
  const cpu = measured ? ((await ctx.monitor?.stop(before)) ?? null) : null;

  // A second for late arrivals (a duplicate would come now, or with a retry's delay of >= 5 s: those
  // show in the attempt log), then what the receiver saw and what the database says.
  await sleep(1000);
  // Read after that second, so that the backends' shares of the round are reported (see walCounters).
  const walAfter = walBefore ? await walCounters(ctx.adminUrl) : null;
  const messages = messagesBefore && perTask(messagesBefore, await messageCounters({ dbUrl, redisUrl: ctx.redisUrl }), count);
  const got = await receiver.collect();
  const db = await roundEvents(dbUrl, endpointId);
  const byId = new Map(db.events.map((e) => [e.id, e]));
  const latencies = [];
  const arrivals = [];
  let duplicated = 0;
  let duplicatedEvents = 0;
  let duplicatesExplained = 0;
  let unknown = 0;
  for (let i = 0; i < got.ids.length; i++) {
    const e = byId.get(got.ids[i]);
    if (!e) {
      unknown++;
      continue;
    }
    arrivals.push(got.first[i]);
    latencies.push(got.first[i] - e.completed_ms);
    if (got.counts[i] > 1) {
      duplicated += got.counts[i] - 1;
      duplicatedEvents++;
      if (e.attempts >= got.counts[i]) duplicatesExplained++;
    }
  }
  const received = new Set(got.ids);
  const lost = db.events.filter((e) => !received.has(e.id));
  const lat = Float64Array.from(latencies).sort();
  const arr = Float64Array.from(arrivals).sort();
  const firstCompletion = db.tasks.first_ms;
  const lastArrival = arr[arr.length - 1];
  const spanSeconds = (lastArrival - firstCompletion) / 1000;
  const lo = Math.floor(arr.length * 0.1);
  const hi = Math.max(lo, Math.ceil(arr.length * 0.9) - 1);
  const steadySeconds = (arr[hi] - arr[lo]) / 1000;
  const backlogSeconds = resumedAtMs === null ? null : (lastArrival - resumedAtMs) / 1000;
  const not200 = db.events.reduce((s, e) => s + e.not200, 0);

  // Signatures of the sampled bodies, with the account's signing secret (as a receiver would).
  const wh = new Webhook(ctx.signingSecret);
  let signaturesOk = 0;
  const signatureFailures = [];
  for (const s of got.samples) {
    try {
      const payload = wh.verify(s.body, s.headers);
      if (payload.id !== s.headers['webhook-id']) throw new Error('payload id differs from webhook-id');
      signaturesOk++;
    } catch (e) {
      if (signatureFailures.length < 5) signatureFailures.push(`${s.headers['webhook-id']}: ${e.message}`);
    }
  }

  return {
    tag,
    tasks: count,
    wal: walBefore && perTask(walBefore, walAfter, count),
    messages,
    setupSeconds,
    confirmSeconds,
    challenges: got.challenges.length,
    completedIn,
    windowSeconds,
    completions: db.tasks.completed,
    completionsPerSecond: db.tasks.completed / ((db.tasks.last_ms - db.tasks.first_ms) / 1000),
    completionSpanSeconds: (db.tasks.last_ms - db.tasks.first_ms) / 1000,
    events: db.events.length,
    delivered: arrivals.length,
    deliveredInDb: db.events.filter((e) => e.state === 'delivered').length,
    deliveriesPerSecond: arrivals.length / spanSeconds,
    spanSeconds,
    steadyPerSecond: (hi - lo + 1) / steadySeconds,
    backlogSeconds,
    backlogPerSecond: backlogSeconds === null ? null : arrivals.length / backlogSeconds,
    lastArrivalAfterLastCompletionMs: lastArrival - db.tasks.last_ms,
    latencyP50: percentile(lat, 50),
    latencyP90: percentile(lat, 90),
    latencyP99: percentile(lat, 99),
    latencyMax: lat[lat.length - 1] ?? NaN,
    latencyMin: lat[0] ?? NaN,
    lost: lost.length,
    lostSample: lost.slice(0, 5).map((e) => ({ id: e.id, state: e.state, attempts: e.attempts })),
    duplicated,
    duplicatedEvents,
    duplicatesExplainedByRetries: duplicatesExplained,
    unknownIds: unknown,
    arrivals: got.arrivals,
    retriedEvents: db.events.filter((e) => e.attempts > 1).length,
    not200Attempts: not200,
    not200Example: db.events.find((e) => e.not200 > 0)?.not200_example ?? null,
    receiverRefused: got.badCount,
    receiverRefusedSample: got.bad,
    signaturesChecked: got.samples.length,
    signaturesOk,
    signatureFailures,
    checkouts: totals.checkouts,
    submit201: totals.submit201,
    noTask: totals.noTask,
    errors: totals.errors,
    errorSamples: totals.errorSamples,
    statusCodes: totals.statusCodes,
    queue: queueStats,
    cpu,
  };
}

/**
 * The control: the same number of tasks completed the same way but without a callback_url, so no
 * event is written or delivered. What a completion costs alone; the difference to a round is the
 * cost of the webhook (the outbox row, the enqueue, the delivery).
 */
async function runControl(ctx, { pool, projectUuid, count }) {
  const { url, liveKey, workers, dbUrl } = ctx;
  const added = await addTasksInBulk(url, { liveKey, projectUuid, count, requiredSubmissions: 1, callbackUrl: null });
  if (added !== count) throw new Error(`control: ${added} tasks added of ${count}`);
  await checkpoint(ctx.adminUrl);
  await sleep(500);
  const totals = cycleTotals();
  const messagesBefore = await messageCounters({ dbUrl, redisUrl: ctx.redisUrl });
  const before = await ctx.monitor?.start();
  const t0 = performance.now();
  await completeAll(pool, { projectUuid, workers, totals });
  const seconds = (performance.now() - t0) / 1000;
  const cpu = (await ctx.monitor?.stop(before)) ?? null;
  await sleep(1000); // as in a round: the backends report their counts when idle, at most once a second
  const messages = perTask(messagesBefore, await messageCounters({ dbUrl, redisUrl: ctx.redisUrl }), count);
  const db = await withClient(dbUrl, async (c) => {
    const { rows } = await c.query(
      `SELECT count(completed_at)::int AS completed,
              (extract(epoch FROM max(completed_at) - min(completed_at)))::float8 AS span,
              (SELECT count(*) FROM webhook_events e JOIN tasks t ON t.id = e.task_id WHERE t.project_id = $1)::int AS events
         FROM tasks WHERE project_id = $1`,
      [projectUuid],
    );
    return rows[0];
  });
  return {
    tasks: count,
    completions: db.completed,
    events: db.events,
    completionsPerSecond: db.completed / db.span,
    seconds,
    errors: totals.errors,
    errorSamples: totals.errorSamples,
    messages,
    cpu,
  };
}

/**
 * ctx: { url, liveKey, token, workers: [{userId, auth}], tasks, rounds, warmupTasks, drainTimeoutSeconds,
 *        control (bool), redisUrl?, redisPrefix? (to sample the queue), dbUrl, adminUrl, log, monitor?, maxForeignCores, retries, registerPid?(name, pid),
 *        profileStart?(), profileStop?() (then one round only, profiled) }
 */
export async function runWebhooks(ctx) {
  const { url, workers, log } = ctx;
  const auth = { authorization: `Bearer ${ctx.token}` };
  const project = await call(url, 'POST', '/api/console/projects', { headers: auth, body: { ...DEFAULT_PROJECT, name: 'bench-webhooks' } });
  const projectUuid = project.data.uuid;
  const settings = await call(url, 'GET', '/api/console/webhooks', { headers: auth, expect: 200 });
  const signingSecret = settings.data.signing_secret;
  const receiver = await startReceiver();
  ctx.registerPid?.('receiver', receiver.pid);
  const pool = new Pool(url, { connections: workers.length, pipelining: 1, keepAliveTimeout: 60_000, keepAliveMaxTimeout: 600_000 });
  const rctx = { ...ctx, projectUuid, auth, signingSecret };
  const perRound = [];
  const all = [];
  let warm = null;
  let control = null;
  try {
    if (ctx.warmupTasks > 0) {
      // Warm-up: the same path with fewer tasks (JIT, pools, connections), not counted.
      warm = await runRound(rctx, { receiver, pool, tag: 'warmup', count: ctx.warmupTasks, measured: false });
      log(
        `  webhooks warm-up: ${warm.tasks} tasks, ${warm.delivered} delivered, ${warm.deliveriesPerSecond.toFixed(0)} deliveries/s, ` +
          `p99 ${warm.latencyP99.toFixed(0)} ms, lost ${warm.lost}, errors ${warm.errors}`,
      );
      if (warm.errors > 0) throw new Error(`webhooks warm-up: ${warm.errorSamples.join('; ')}`);
    }
    const rounds = ctx.profileStart ? 1 : ctx.rounds;
    for (let round = 1; round <= rounds; round++) {
      let r;
      for (let attempt = 0; ; attempt++) {
        r = await runRound(rctx, { receiver, pool, tag: `round-${round}${attempt ? `-again-${attempt}` : ''}`, count: ctx.tasks, measured: true });
        const disturbed = r.cpu && r.cpu.foreignCores > ctx.maxForeignCores;
        r.disturbed = Boolean(disturbed);
        all.push(r);
        log(
          `  webhooks round ${round}/${rounds} ${r.deliveriesPerSecond.toFixed(0).padStart(5)} deliveries/s (steady ${r.steadyPerSecond.toFixed(0)})  ` +
            (r.backlogPerSecond !== null ? `backlog ${r.backlogPerSecond.toFixed(0)}/s over ${r.backlogSeconds.toFixed(1)} s  ` : '') +
            `completions ${r.completionsPerSecond.toFixed(0)}/s over ${r.completionSpanSeconds.toFixed(1)} s  ` +
            `latency p50 ${r.latencyP50.toFixed(0)} p99 ${r.latencyP99.toFixed(0)} max ${r.latencyMax.toFixed(0)} ms  ` +
            `delivered ${r.delivered}/${r.events}  lost ${r.lost}  dup ${r.duplicated}  not-200 ${r.not200Attempts}  errors ${r.errors}` +
            (r.queue ? `  queue: waiting max ${r.queue.waitingMax} mean ${r.queue.waitingMean}, active max ${r.queue.activeMax} mean ${r.queue.activeMean}` : '') +
            (r.messages ? `  per task: ${formatPerTask(r.messages)}` : '') +
            (r.wal ? `  wal per task: ${r.wal.syncs.toFixed(2)} syncs, ${r.wal.records.toFixed(1)} records, ${(r.wal.bytes / 1024).toFixed(1)} KiB` : '') +
            (r.cpu
              ? `  cpu: api ${r.cpu.groupsCores.api ?? 0}${r.cpu.groupsCores.jobs !== undefined ? ` jobs ${r.cpu.groupsCores.jobs}` : ''} postgres ${r.cpu.groupsCores.postgres ?? 0} redis ${r.cpu.groupsCores.redis ?? 0} ` +
                `driver ${r.cpu.groupsCores.driver ?? 0} receiver ${r.cpu.groupsCores.receiver ?? 0} other ${r.cpu.foreignCores} idle ${r.cpu.idleCores}`
              : '') +
            (disturbed ? (attempt < ctx.retries ? '  -> disturbed, again' : '  -> disturbed, kept') : ''),
        );
        if (!disturbed || attempt >= ctx.retries || r.errors > 0 || r.lost > 0) break;
      }
      perRound.push(r);
      if (r.errors > 0) break;
    }
    if (ctx.control && !ctx.profileStart && perRound.every((r) => r.errors === 0)) {
      const p = await call(url, 'POST', '/api/console/projects', { headers: auth, body: { ...DEFAULT_PROJECT, name: 'bench-webhooks-control' } });
      control = await runControl(rctx, { pool, projectUuid: p.data.uuid, count: ctx.tasks });
      log(
        `  control (no callback_url): ${control.completionsPerSecond.toFixed(0)} completions/s, ${control.events} events, errors ${control.errors}` +
          `  per task: ${formatPerTask(control.messages)}` +
          (control.cpu
            ? `  cpu: api ${control.cpu.groupsCores.api ?? 0}${control.cpu.groupsCores.jobs !== undefined ? ` jobs ${control.cpu.groupsCores.jobs}` : ''} postgres ${control.cpu.groupsCores.postgres ?? 0} redis ${control.cpu.groupsCores.redis ?? 0} ` +
              `driver ${control.cpu.groupsCores.driver ?? 0} other ${control.cpu.foreignCores} idle ${control.cpu.idleCores}`
            : ''),
      );
    }
  } finally {
    await pool.close();
    await receiver.stop();
  }

  const invariants = await withClient(ctx.dbUrl, (c) => countInvariantViolations(c, projectUuid));
  // Lost, duplicates, failures and errors count every round run: the warm-up and the disturbed ones too.
  const every = warm ? [warm, ...all] : all;
  const sum = (k) => every.reduce((s, r) => s + r[k], 0);
  /** CPU µs per task by process group: the median over the rounds (or of one control run). */
  const cpuUsPerTask = (runs) => {
    if (runs.length === 0 || !runs.every((r) => r.cpu)) return null;
    const out = {};
    for (const group of ['api', 'jobs', 'postgres', 'redis', 'driver', 'receiver']) {
      out[group] = Math.round(median(runs.map((r) => ((r.cpu.groupsCores[group] ?? 0) * r.cpu.seconds * 1e6) / r.tasks)));
    }
    out.total = Math.round(median(runs.map((r) => (r.cpu.oursCores * r.cpu.seconds * 1e6) / r.tasks)));
    return out;
  };
  const cpuUsPerEvent = cpuUsPerTask(perRound);
  return {
    tasksPerRound: ctx.tasks,
    rounds: perRound.length,
    workers: workers.length,
    warmupTasks: ctx.warmupTasks,
    drainTimeoutSeconds: ctx.drainTimeoutSeconds,
    deliveriesPerSecondMedian: median(perRound.map((r) => r.deliveriesPerSecond)),
    deliveriesPerSecond: perRound.map((r) => Math.round(r.deliveriesPerSecond)),
    steadyPerSecondMedian: median(perRound.map((r) => r.steadyPerSecond)),
    backlog: Boolean(ctx.backlog),
    backlogPerSecondMedian: ctx.backlog ? median(perRound.map((r) => r.backlogPerSecond)) : null,
    backlogPerSecond: ctx.backlog ? perRound.map((r) => Math.round(r.backlogPerSecond)) : null,
    completionsPerSecondMedian: median(perRound.map((r) => r.completionsPerSecond)),
    completionsPerSecond: perRound.map((r) => Math.round(r.completionsPerSecond)),
    latencyP50Median: median(perRound.map((r) => r.latencyP50)),
    latencyP99Median: median(perRound.map((r) => r.latencyP99)),
    latencyP99: perRound.map((r) => Math.round(r.latencyP99)),
    latencyMax: Math.max(...perRound.map((r) => r.latencyMax)),
    queueWaitingMax: Math.max(...perRound.map((r) => r.queue?.waitingMax ?? 0)),
    queueActiveMeanMedian: median(perRound.map((r) => r.queue?.activeMean ?? NaN)),
    lost: sum('lost'),
    duplicated: sum('duplicated'),
    duplicatedEvents: sum('duplicatedEvents'),
    duplicatesExplainedByRetries: sum('duplicatesExplainedByRetries'),
    retriedEvents: sum('retriedEvents'),
    not200Attempts: sum('not200Attempts'),
    receiverRefused: sum('receiverRefused'),
    unknownIds: sum('unknownIds'),
    signaturesChecked: sum('signaturesChecked'),
    signaturesOk: sum('signaturesOk'),
    signatureFailures: every.flatMap((r) => r.signatureFailures),
    errors: sum('errors') + (control?.errors ?? 0),
    errorSamples: [...every, ...(control ? [control] : [])].flatMap((r) => r.errorSamples).slice(0, 10),
    foreignCores: perRound.map((r) => r.cpu?.foreignCores ?? null),
    disturbedRuns: perRound.filter((r) => r.disturbed).length,
    cpuUsPerEvent,
    walPerTask: perRound.every((r) => r.wal) ? medianOf(perRound.map((r) => r.wal)) : null,
    messagesPerTask: perRound.every((r) => r.messages) ? medianOf(perRound.map((r) => r.messages)) : null,
    control: control && { ...control, cpuUsPerTask: cpuUsPerTask([control]) },
    invariants,
    warmup: warm,
    runs: all,
  };
}
