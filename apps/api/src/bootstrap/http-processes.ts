import cluster, { type Worker } from 'node:cluster';
import { serveProcessMetrics } from '../metrics/cluster-metrics';
import { SHUTDOWN_SIGNALS } from './shutdown-deadline';

/**
 * A process that dies before it ever listened, within this long of its start, failed to start (the port
 * taken, a module missing, a bad setting), and MAX_QUICK_DEATHS of those in a row are a crash loop. A
 * boot from sources takes 2-3 s on a quiet machine and passed 5 s on a busy one, the first value here,
 * so a copy that found its port taken lived "long enough" and was restarted for ever. A copy that waits
 * for the database lives ~30 s (TypeORM's retries) and is still started again; one that listened and
 * then died (a crash while serving) is never counted, however soon, so it cannot stop healthy copies.
 */
const CRASH_LOOP_MS = 20_000;
const MAX_QUICK_DEATHS = 5;
/** How much longer than its processes' own SHUTDOWN_TIMEOUT_MS the supervisor waits for them. */
const SUPERVISOR_GRACE_MS = 1_000;

export interface SuperviseOptions {
  /** SHUTDOWN_TIMEOUT_MS: each process's own deadline; the supervisor's is this plus a second. */
  shutdownTimeoutMs: number;
  log?: (line: string) => void;
}

/**
 * The primary of HTTP_PROCESSES > 1 (docs/scaling.md, "Processes on one host"): forks `count` copies of
 * this server with the same arguments and environment; node:cluster hands each new connection to one of
 * them, so they share PORT. The primary serves nothing itself but the sum of their metrics, to whichever
 * of them is scraped. A process that dies is started again,
 * unless processes keep dying as they start, before they listen (the port taken, a module missing), when
 * the primary stops the rest and exits with code 1 instead of looping. (With the database away at boot a
 * copy retries its connection for about half a minute first, so it is simply started again.) SIGTERM
 * and SIGINT are passed to every process, which closes its connections and finishes its requests
 * (Nest's shutdown hooks) within its SHUTDOWN_TIMEOUT_MS; the primary exits once all have, with code 1
 * if any did not end cleanly. One that is still there a second after that deadline (stopped, stuck in
 * a synchronous loop) is killed with SIGKILL, and the primary exits with code 1.
 */
export function superviseHttpProcesses(count: number, options: SuperviseOptions): void {
  const log = options.log ?? ((line: string) => console.error(line));
  let stopping = false;
  let failed = false;
  let quickDeaths = 0;
  const started = new Map<Worker, number>();
  const listened = new Set<Worker>();
  // A scrape of /metrics reaches one process; it asks here for every process's figures (cluster-metrics.ts).
  serveProcessMetrics();

  const start = (): void => {
    started.set(cluster.fork(), Date.now());
  };

  /** Passes `signal` to every process and bounds how long they may take to end. */
  const stopAll = (signal: NodeJS.Signals): void => {
    stopping = true;
    for (const w of started.keys()) w.process.kill(signal);
    if (started.size === 0) process.exit(failed ? 1 : 0);
    const deadlineMs = options.shutdownTimeoutMs + SUPERVISOR_GRACE_MS;
    setTimeout(() => {
      const left = [...started.keys()].map((w) => w.process.pid);
      log(`http processes ${left.join(', ')} still running ${deadlineMs} ms after ${signal}; killing them and exiting with code 1`);
      for (const w of started.keys()) w.process.kill('SIGKILL');
      process.exit(1);
    }, deadlineMs).unref();
  };

  cluster.on('listening', (worker) => {
    listened.add(worker);
    // A copy that started: the failures counted so far were not a loop every start ends in.
    quickDeaths = 0;
  });

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0);
    const served = listened.delete(worker);
    started.delete(worker);
    if (stopping) {
      // Ended by the signal passed on (code null), or exited 0: clean. Anything else (its own deadline's
      // code 1) is reported in the primary's exit code too.
      if (code !== null && code !== 0) failed = true;
      if (started.size === 0) process.exit(failed ? 1 : 0);
      return;
    }
    log(`http process ${worker.process.pid} exited (${signal ?? `code ${code}`}) after ${lived} ms; starting another`);
    quickDeaths = !served && lived < CRASH_LOOP_MS ? quickDeaths + 1 : 0;
    if (quickDeaths >= MAX_QUICK_DEATHS) {
      log(`http processes keep exiting right after they start; giving up`);
      failed = true;
      stopAll('SIGTERM');
      return;
    }
    start();
  });

  for (const signal of SHUTDOWN_SIGNALS) {
    process.on(signal, () => {
      if (!stopping) stopAll(signal);
    });
  }

  for (let i = 0; i < count; i++) start();
}
