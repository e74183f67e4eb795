// Peak resident memory (VmRSS from /proc/<pid>/status) of another process while something runs.
// The samples are taken in a worker thread, so a driver busy receiving a 100 MB response does not
// delay them; the thread sleeps in Atomics.wait between samples and wakes at once on stop().
// Linux only: elsewhere start() resolves to null.
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** VmRSS of `pid` in KiB, or null when unreadable. */
export function readRssKiB(pid) {
  try {
    const m = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : null;
  } catch {
    return null;
  }
}

const THREAD = `
const { workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const { pid, intervalMs, shared } = workerData;
const flags = new Int32Array(shared, 0, 4);   // [stop, samples, peakKiB, lastKiB]
const rss = () => {
  try {
    const m = /^VmRSS:\\s+(\\d+)\\s+kB/m.exec(readFileSync('/proc/' + pid + '/status', 'utf8'));
    return m ? Number(m[1]) : -1;
  } catch { return -1; }
};
while (Atomics.load(flags, 0) === 0) {
  const kib = rss();
  if (kib >= 0) {
    Atomics.add(flags, 1, 1);
    Atomics.store(flags, 3, kib);
    if (kib > Atomics.load(flags, 2)) Atomics.store(flags, 2, kib);
  }
  Atomics.wait(flags, 0, 0, intervalMs);
}
`;

/**
 * const s = await rssSampler(pid).start();  ...work...;  const r = await s.stop();
 * r: { beforeKiB (one sample just before start resolved), peakKiB, afterKiB, samples, growthKiB }
 */
export function rssSampler(pid, { intervalMs = 20 } = {}) {
  return {
    async start() {
      const before = readRssKiB(pid);
      if (before === null) return null;
      const shared = new SharedArrayBuffer(16);
      const flags = new Int32Array(shared);
      flags[2] = before;
      const worker = new Worker(THREAD, { eval: true, workerData: { pid, intervalMs, shared } });
      await new Promise((resolve, reject) => {
        worker.once('online', resolve);
        worker.once('error', reject);
      });
      return {
        async stop() {
          Atomics.store(flags, 0, 1);
          Atomics.notify(flags, 0);
          await new Promise((resolve) => worker.once('exit', resolve));
          const after = readRssKiB(pid) ?? flags[3];
          const peak = Math.max(flags[2], after);
          return { beforeKiB: before, peakKiB: peak, afterKiB: after, samples: flags[1], growthKiB: peak - before };
        },
      };
    },
  };
}
