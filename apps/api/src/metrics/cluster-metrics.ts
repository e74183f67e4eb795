import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * HTTP_PROCESSES > 1 (bootstrap/http-processes.ts): the processes share one port, so a scrape reaches one
 * of them, and its own figures (requests, webhooks counted, the pool) would jump from one scrape to the
 * next. So the process that is scraped asks the supervisor, which gathers every process's registry and
 * answers with the text of the whole, summed by prom-client's AggregatorRegistry.aggregate (counters and
 * histograms summed, each gauge by its `aggregator`).
 *
 * The gathering is ours, not AggregatorRegistry#clusterMetrics: that one gives up after a fixed 5 s,
 * whatever READYZ_TIMEOUT_MS says, and a loaded host's CI run missed it (the scrape then fell back to one
 * process's figures). Here the asker's time limit is the supervisor's too.
 */
const ASK = 'crowdbox:process-metrics?';
const ANSWER = 'crowdbox:process-metrics!';
const GATHER = 'crowdbox:process-metrics-gather?';
const GATHERED = 'crowdbox:process-metrics-gather!';
/** A process saying it answers GATHER from now on (sent once, when its metrics are set up). */
const OFFERED = 'crowdbox:process-metrics-offered';

interface Ask {
  type: typeof ASK;
  id: number;
  timeoutMs: number;
}

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

interface Offered {
  type: typeof OFFERED;
}

interface Gathered {
  type: typeof GATHERED;
  id: number;
  /** One process's registry, as getMetricsAsJSON gives it. */
  metrics?: object[];
  error?: string;
}

/** In the supervisor: answers the processes' requests for the metrics of all of them. */
export function serveProcessMetrics(): void {
  let nextGathering = 0;
  const gatherings = new Map<number, (reply: Gathered) => void>();
  // Only processes that said they answer are asked. One still booting (a replacement for one that died,
  // or one waiting ~30 s for the database) has no listener yet and would never answer: asking it made
  // every scrape of those seconds wait out the time limit and fall back to one process's figures, so
  // the counters seemed to drop and rise again. It has served nothing yet, so leaving it out loses nothing.
  const offering = new Set<Worker>();
  cluster.on('exit', (worker) => offering.delete(worker));
  cluster.on('message', (worker, message: Ask | Gathered | Offered) => {
    if (message?.type === OFFERED) offering.add(worker);
    if (message?.type === GATHERED) gatherings.get(message.id)?.(message);
    if (message?.type !== ASK) return;
    const answer = (reply: Omit<Answer, 'type' | 'id'>) => worker.isConnected() && worker.send({ type: ANSWER, id: message.id, ...reply } satisfies Answer);
    // A process that exits abruptly may still be listed, unable to answer: only connected ones are asked.
    const asked = [...offering].filter((w) => w.isConnected());
    const id = nextGathering++;
    const gathered: object[][] = [];
    const timer = setTimeout(() => {
      gatherings.delete(id);
      answer({ error: `${asked.length - gathered.length} of ${asked.length} processes did not answer within ${message.timeoutMs} ms` });
    }, message.timeoutMs);
    gatherings.set(id, (reply) => {
      if (reply.metrics === undefined) {
        clearTimeout(timer);
        gatherings.delete(id);
        answer({ error: reply.error ?? 'no metrics' });
        return;
      }
      gathered.push(reply.metrics);
      if (gathered.length < asked.length) return;
      clearTimeout(timer);
      gatherings.delete(id);
      AggregatorRegistry.aggregate(gathered)
        .metrics()
        .then(
          (text) => answer({ text }),
          (error: Error) => answer({ error: error.message }),
        );
    });
    for (const w of asked) w.send({ type: GATHER, id });
  });
}

let offered = false;
let next = 0;
const waiting = new Map<number, (answer: Answer) => void>();

/**
 * In a process the supervisor started: `registry` is what this process gives the supervisor when it
 * gathers. Idempotent per process; the registry of the first app wins (one app per such process).
 */
export function offerProcessMetrics(registry: Registry): void {
  if (!cluster.isWorker || offered) return;
  offered = true;
  process.on('message', (message: Answer | { type?: string; id: number }) => {
    if (message?.type === GATHER) {
      registry.getMetricsAsJSON().then(
        (metrics) => process.send?.({ type: GATHERED, id: message.id, metrics } satisfies Gathered),
        (error: Error) => process.send?.({ type: GATHERED, id: message.id, error: error.message } satisfies Gathered),
      );
    }
    if (message?.type === ANSWER) waiting.get(message.id)?.(message as Answer);
  });
  process.send?.({ type: OFFERED } satisfies Offered);
}

/** Whether this process is one of several sharing a port, whose figures only the supervisor can sum. */
export function sharesItsPort(): boolean {
  return cluster.isWorker && offered;
}

/** The text of every process's registry, summed by the supervisor; rejects after `timeoutMs`. */
export function metricsOfAllProcesses(timeoutMs: number): Promise<string> {
  const id = next++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error(`no answer from the supervisor within ${timeoutMs} ms`));
    }, timeoutMs);
    waiting.set(id, (answer) => {
      clearTimeout(timer);
      waiting.delete(id);
      if (answer.text !== undefined) resolve(answer.text);
      else reject(new Error(answer.error ?? 'no metrics'));
    });
    process.send?.({ type: ASK, id, timeoutMs } satisfies Ask);
  });
}
