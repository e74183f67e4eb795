// Summarises a .cpuprofile (V8 sampling profiler) into time per request, so the costs of one request
// can be read without DevTools:
//  - "waiting in socket writes": samples in the native writev/writeBuffer/writeUtf8String. On a 2-core
//    machine shared with PostgreSQL, the sampler catches the thread there mostly while it is preempted
//    after waking the receiver (perf/proc show little system time), so this is not CPU of the server;
//    it is reported apart, with (idle) and (program).
//  - self time by package: every other sample charged to the nearest JavaScript frame that has a
//    source (so native helpers count for the package that called them).
//  - inclusive time of the top functions (each function counted once per sample).
import { readFileSync } from 'node:fs';

const OFF_CPU = new Set(['(idle)', '(program)', 'writev', 'writeBuffer', 'writeUtf8String', 'writeLatin1String']);

function where(url) {
  if (!url) return null;
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  for (const marker of ['/api-dist/', '/dist/api/']) {
    const i = url.indexOf(marker);
    if (i >= 0) return 'app:' + url.slice(i + marker.length).replace(/^apps\/api\/src\//, '').replace(/\.js$/, '');
  }
  return url.replace(/^file:\/\//, '');
}

/**
 * Returns { sampledMs, requests, offCpu: {name: µs/req}, byWhere: [{what, us, share}], inclusive: [...] }.
 * `requests` (answered during the profile) turns times into µs per request; without it, ms in total.
 */
export function summarizeProfile(file, { requests = 0, top = 30 } = {}) {
  const profile = JSON.parse(readFileSync(file, 'utf8'));
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) {
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const per = (us) => (requests > 0 ? us / requests : us / 1000);
  let sampled = 0;
  let onCpu = 0;
  const offCpu = {};
  const byWhere = new Map();
  const inclusive = new Map();
  const add = (m, k, v) => m.set(k, (m.get(k) ?? 0) + v);
  for (const [id, us] of self) {
    sampled += us;
    const f = nodes.get(id).callFrame;
    if (OFF_CPU.has(f.functionName)) {
      offCpu[f.functionName] = (offCpu[f.functionName] ?? 0) + us;
      continue;
    }
    onCpu += us;
    if (f.functionName === '(garbage collector)') {
      add(byWhere, '(garbage collector)', us);
      continue;
    }
    let cur = id;
    let w = null;
    while (cur !== undefined && !(w = where(nodes.get(cur).callFrame.url))) cur = parent.get(cur);
    add(byWhere, w ?? '(native, no JS caller)', us);
    const seen = new Set();
    for (cur = id; cur !== undefined; cur = parent.get(cur)) {
      const cf = nodes.get(cur).callFrame;
      if (cf.functionName === '(root)') break;
      const key = `${cf.functionName || '(anonymous)'}  ${where(cf.url) ?? '(native)'}:${cf.lineNumber + 1}`;
      if (!seen.has(key)) {
        seen.add(key);
        add(inclusive, key, us);
      }
    }
  }
  const rows = (m) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([what, us]) => ({ what, value: per(us), share: us / onCpu }));
  return {
    sampledMs: Math.round(sampled / 1000),
    onCpuPerRequest: per(onCpu),
    requests,
    unit: requests > 0 ? 'µs/request' : 'ms',
    offCpu: Object.fromEntries(Object.entries(offCpu).map(([k, us]) => [k, Math.round(per(us))])),
    byWhere: rows(byWhere),
    inclusive: rows(inclusive),
  };
}

export function printProfileSummary(s, log = console.log) {
  log(`CPU profile: ${s.sampledMs} ms sampled, ${s.requests} requests; times in ${s.unit}`);
  log(`  JS + GC (on CPU): ${s.onCpuPerRequest.toFixed(0)}; apart: ${Object.entries(s.offCpu).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  log('  self time by package (native helpers charged to their JS caller):');
  for (const r of s.byWhere) log(`    ${r.value.toFixed(1).padStart(7)}  ${(r.share * 100).toFixed(1).padStart(5)}%  ${r.what}`);
  log('  inclusive time, top functions:');
  for (const r of s.inclusive) log(`    ${r.value.toFixed(1).padStart(7)}  ${(r.share * 100).toFixed(1).padStart(5)}%  ${r.what}`);
}

// node bench/lib/profile-summary.mjs <file.cpuprofile> [requests] [top]
if (import.meta.url === `file://${process.argv[1]}`) {
  printProfileSummary(summarizeProfile(process.argv[2], { requests: Number(process.argv[3] ?? 0), top: Number(process.argv[4] ?? 40) }));
}
