import cluster, { type Worker } from 'node:cluster';

/** Restarts of a process that dies within this long of its start count as a crash loop. */
const CRASH_LOOP_MS = 5_000;
const MAX_QUICK_DEATHS = 5;

/**
 * The primary of HTTP_PROCESSES > 1 (docs/scaling.md, "Processes on one host"): forks `count` copies of
 * this server with the same arguments and environment; node:cluster hands each new connection to one of
 * them, so they share PORT. The primary serves nothing itself. A process that dies is started again,
 * unless processes keep dying right after they start (the port taken, a module missing), when the
 * primary stops the rest and exits with code 1 instead of looping. (With the database away at boot a
 * copy retries its connection for about half a minute first, so it is simply started again.) SIGTERM
 * and SIGINT are passed to every process, which closes its connections and finishes its requests
 * (Nest's shutdown hooks); the primary exits once all have.
 */
export function superviseHttpProcesses(count: number, log: (line: string) => void = (line) => console.error(line)): void {
  let stopping = false;
  let failed = false;
  let quickDeaths = 0;
  const started = new Map<Worker, number>();

  const start = (): void => {
    started.set(cluster.fork(), Date.now());
  };

  cluster.on('exit', (worker, code, signal) => {
    const lived = Date.now() - (started.get(worker) ?? 0);
    started.delete(worker);
    if (stopping) {
      if (started.size === 0) process.exit(failed ? 1 : 0);
      return;
    }
    log(`http process ${worker.process.pid} exited (${signal ?? `code ${code}`}) after ${lived} ms; starting another`);
    quickDeaths = lived < CRASH_LOOP_MS ? quickDeaths + 1 : 0;
    if (quickDeaths >= MAX_QUICK_DEATHS) {
      log(`http processes keep exiting right after they start; giving up`);
      stopping = true;
      failed = true;
      for (const w of started.keys()) w.process.kill('SIGTERM');
      if (started.size === 0) process.exit(1);
      return;
    }
    start();
  });

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      stopping = true;
      for (const w of started.keys()) w.process.kill(signal);
      if (started.size === 0) process.exit(0);
    });
  }

  for (let i = 0; i < count; i++) start();
}
