import cluster from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/**
 * HTTP_PROCESSES > 1 (bootstrap/http-processes.ts): the processes share one port, so a scrape reaches one
 * of them, and its own figures (requests, webhooks counted, the pool) would jump from one scrape to the
 * next. So the process that is scraped asks the supervisor, which gathers every process's registry
 * through prom-client's AggregatorRegistry (counters and histograms summed, each gauge by its
 * `aggregator`) and answers with the text of the whole.
 */
const ASK = 'crowdbox:process-metrics?';
const ANSWER = 'crowdbox:process-metrics!';

interface Answer {
  type: typeof ANSWER;
  id: number;
  text?: string;
  error?: string;
}

/** In the supervisor: answers the processes' requests for the metrics of all of them. */
export function serveProcessMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id: number }) => {
    if (message?.type !== ASK) return;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ type: ANSWER, id: message.id, text } satisfies Answer),
      (error: Error) => worker.send({ type: ANSWER, id: message.id, error: error.message } satisfies Answer),
    );
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
  AggregatorRegistry.setRegistries([registry]);
  // Its constructor adds prom-client's listener that answers the supervisor's gathering.
  new AggregatorRegistry();
  process.on('message', (message: Answer) => {
    if (message?.type !== ANSWER) return;
    waiting.get(message.id)?.(message);
  });
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
    process.send?.({ type: ASK, id });
  });
}
