// How much CPU other programs used while a run was measured. The machine is shared (2 cores, and other
// people build and test on it), so every measured run records "foreign" CPU: all user+system time
// (from /proc/stat) minus the time of the processes this benchmark involves (the driver, the servers,
// PostgreSQL's backends on the benchmark database and its auxiliary processes, redis-server).
// Linux only; elsewhere it reports null.
import { readFileSync, readdirSync } from 'node:fs';
import { withClient } from './db.mjs';

const HZ = 100; // USER_HZ: /proc times are in 1/100 s on Linux

function systemJiffies() {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const [user, nice, system, idle, iowait, irq, softirq, steal] = f;
  return { task: user + nice + system, idle, iowait, irq: irq + softirq, steal };
}

function processJiffies(pid) {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { comm: s.slice(s.indexOf('(') + 1, s.lastIndexOf(')')), ppid: Number(f[1]), cpu: Number(f[11]) + Number(f[12]) };
  } catch {
    return null;
  }
}

/** Every process now running: pid, command name and parent, from one walk of /proc. */
function processTable() {
  const out = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const p = processJiffies(d);
    if (p) out.push({ pid: Number(d), comm: p.comm, ppid: p.ppid });
  }
  return out;
}

/**
 * monitor.start() before a run, monitor.stop() after: resolves to
 * { foreignCores, oursCores, groupsCores: { driver, <server>, postgres, redis }, idleCores, iowaitCores,
 *   stealCores, seconds }
 * (cores = average number of CPUs busy).
 */
export function cpuMonitor({ adminUrl, dbName, pids }) {
  const supported = (() => {
    try {
      readFileSync('/proc/stat');
      return true;
    } catch {
      return false;
    }
  })();

  /** pid -> group (driver, each server by name, postgres, redis). */
  async function ourPids() {
    const db = await withClient(adminUrl, (c) =>
      c.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1 OR backend_type <> 'client backend'`, [dbName]),
    );
    const groups = new Map([[process.pid, 'driver']]);
    const table = processTable();
    for (const [name, pid] of Object.entries(pids())) {
      groups.set(pid, name);
      // An API with HTTP_PROCESSES > 1 serves from the processes it forked.
      for (const p of table) if (p.ppid === pid) groups.set(p.pid, name);
    }
    for (const r of db.rows) groups.set(r.pid, 'postgres');
    for (const p of table) if (p.comm === 'redis-server') groups.set(p.pid, 'redis');
    return groups;
  }

  async function snapshot() {
    const groups = await ourPids();
    const procs = new Map();
    for (const [pid, group] of groups) {
      const cpu = processJiffies(pid)?.cpu;
      if (cpu !== undefined) procs.set(pid, { group, cpu });
    }
    return { at: Date.now(), sys: systemJiffies(), procs };
  }

  /**
   * Re-reads our processes every second while a run is measured, so that one which exits during the run
   * (a PostgreSQL backend whose pool connection idled out, a reconnect) still counts as ours up to its
   * last reading, instead of its time showing up as "foreign" and the run being measured again.
   */
  function sampleExits(before) {
    const seen = new Map(before.procs);
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      snapshot()
        .then((now) => {
          for (const [pid, proc] of now.procs) seen.set(pid, proc);
        })
        .catch(() => {})
        .finally(() => (busy = false));
    }, 1000);
    timer.unref(); // a run that throws before stop() must not keep the driver alive
    return { seen, stop: () => clearInterval(timer) };
  }

  return {
    async start() {
      if (!supported) return null;
      const before = await snapshot();
      before.sampler = sampleExits(before);
      return before;
    },
    async stop(before) {
      if (!before) return null;
      before.sampler.stop();
      const after = await snapshot();
      for (const [pid, proc] of before.sampler.seen) if (!after.procs.has(pid)) after.procs.set(pid, proc);
      const seconds = (after.at - before.at) / 1000;
      let ours = 0;
      const byGroup = {};
      for (const [pid, { group, cpu }] of after.procs) {
        const used = cpu - (before.procs.get(pid)?.cpu ?? 0);
        ours += used;
        byGroup[group] = (byGroup[group] ?? 0) + used;
      }
      const task = after.sys.task - before.sys.task;
      const round = (x) => Math.round(x * 100) / 100;
      return {
        seconds,
        groupsCores: Object.fromEntries(Object.entries(byGroup).map(([g, j]) => [g, round(j / HZ / seconds)])),
        oursCores: round(ours / HZ / seconds),
        foreignCores: round(Math.max(0, task - ours) / HZ / seconds),
        idleCores: round((after.sys.idle - before.sys.idle) / HZ / seconds),
        iowaitCores: round((after.sys.iowait - before.sys.iowait) / HZ / seconds),
        stealCores: round((after.sys.steal - before.sys.steal) / HZ / seconds),
      };
    },
  };
}
