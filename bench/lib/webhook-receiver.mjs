// The webhook receiver of `npm run bench -- --suite=webhooks`: plain node:http on 127.0.0.1 with
// keep-alive, answering challenges with their token and every task_completed event with 200. It
// records, per `webhook-id`, the first arrival time and how many times the id arrived.
//
// It runs in a child process of its own (startReceiver() forks this file), not in the driver: while
// the receiver is measured, the driver's event loop is busy with the simulated workers (hundreds of
// checkout + submit requests in flight). In the same process each delivery would wait behind that
// work before it is even read, so the arrival times would include the driver's event-loop lag and a
// backed-up receiver could slow the API's deliveries (it holds up to WEBHOOK_CONCURRENCY requests
// open). A child has its own event loop and the OS schedules it on whichever core is free; its CPU is
// measured as the group `receiver`.
//
// Arrival times are Date.now() taken when the body is complete: the same wall clock (CLOCK_REALTIME)
// that PostgreSQL's now() reads for tasks.completed_at on this machine. (performance.timeOrigin +
// performance.now() is finer but follows the monotonic clock, which drifts from the wall clock while
// NTP slews it; 1 ms resolution is plenty for a target of 1 s.)
//
// Protocol (IPC): the child sends {type:'ready', port}; the parent sends {type, seq} for 'reset'
// (forget everything recorded), 'stats' (distinct ids, arrivals, challenges) and 'collect' (every
// record), and the child answers {type:'reply', seq, ...}. 'stop' closes the server and exits.
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';

/** Keep this many event bodies (with their headers) for the signature check: every SAMPLE_EVERY-th id. */
const SAMPLE_EVERY = 50;
const SAMPLE_MAX = 400;

// ------------------------------------------------------------------------------------------ child
function runChild() {
  let first = new Map(); // webhook-id -> first arrival (epoch ms)
  let count = new Map(); // webhook-id -> arrivals
  let arrivals = 0;
  let challenges = [];
  let samples = [];
  let bad = [];

  const reply = (res, status, body) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const refuse = (res, path, why) => {
    if (bad.length < 20) bad.push({ path, why });
    else bad.push(null); // counted, not kept
    reply(res, 400, { error: why });
  };

  const server = http.createServer({ keepAlive: true, noDelay: true }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      const path = (req.url ?? '/').split('?')[0];
      if (req.method !== 'POST') return refuse(res, path, `method ${req.method}`);
      const body = Buffer.concat(chunks).toString('utf8');
      let json;
      try {
        json = JSON.parse(body);
      } catch {
        return refuse(res, path, 'body is not JSON');
      }
      if (json?.event === 'challenge') {
        challenges.push({ path, at });
        return reply(res, 200, { token: json.data?.token });
      }
      const id = req.headers['webhook-id'];
      if (json?.event !== 'task_completed' || typeof id !== 'string') return refuse(res, path, `event ${json?.event}, webhook-id ${id}`);
      if (json.id !== id) return refuse(res, path, `body id ${json.id} is not the webhook-id ${id}`);
      arrivals++;
      const n = (count.get(id) ?? 0) + 1;
      count.set(id, n);
      if (n === 1) {
        first.set(id, at);
        if (first.size % SAMPLE_EVERY === 1 && samples.length < SAMPLE_MAX) {
          samples.push({
            body,
            headers: {
              'webhook-id': id,
              'webhook-timestamp': req.headers['webhook-timestamp'],
              'webhook-signature': req.headers['webhook-signature'],
            },
          });
        }
      }
      reply(res, 200, { ok: true });
    });
  });
  // Keep-alive well beyond the sender's 10 s, so no connection is closed between rounds' bursts.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 130_000;

  process.on('message', (msg) => {
    const answer = (data) => process.send({ type: 'reply', seq: msg.seq, ...data });
    switch (msg.type) {
      case 'reset':
        first = new Map();
        count = new Map();
        arrivals = 0;
        challenges = [];
        samples = [];
        bad = [];
        return answer({});
      case 'stats':
        return answer({ distinct: first.size, arrivals, challenges: challenges.length, bad: bad.length });
      case 'collect':
        return answer({
          ids: [...first.keys()],
          first: [...first.values()],
          counts: [...first.keys()].map((id) => count.get(id)),
          arrivals,
          challenges,
          samples,
          bad: bad.filter(Boolean),
          badCount: bad.length,
        });
      case 'stop':
        server.closeAllConnections();
        server.close(() => process.exit(0));
        return undefined;
      default:
        return answer({ error: `unknown message ${msg.type}` });
    }
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => process.send({ type: 'ready', port: server.address().port }));
}

// ----------------------------------------------------------------------------------------- parent
/**
 * Forks the receiver; resolves to { pid, url(path), reset(), stats(), collect(), stop() } once it
 * listens on 127.0.0.1.
 */
export async function startReceiver() {
  const child = fork(fileURLToPath(import.meta.url), ['--child'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
  let seq = 0;
  const waiting = new Map();
  let exited = null;
  child.on('message', (msg) => {
    if (msg.type !== 'reply') return;
    waiting.get(msg.seq)?.(msg);
    waiting.delete(msg.seq);
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', (msg) => (msg.type === 'ready' ? resolve(msg.port) : reject(new Error(`receiver: ${JSON.stringify(msg)}`))));
    child.once('exit', (code, signal) => reject(new Error(`webhook receiver exited during start (code ${code}, signal ${signal})`)));
  });
  child.on('exit', (code, signal) => {
    exited = { code, signal };
    for (const [, resolve] of waiting) resolve({ error: `webhook receiver exited (code ${code}, signal ${signal})` });
    waiting.clear();
  });
  const ask = (type) =>
    new Promise((resolve, reject) => {
      if (exited) return reject(new Error(`webhook receiver exited (code ${exited.code}, signal ${exited.signal})`));
      const n = ++seq;
      waiting.set(n, (msg) => (msg.error ? reject(new Error(msg.error)) : resolve(msg)));
      child.send({ type, seq: n });
    });
  return {
    pid: child.pid,
    port,
    url: (path) => `http://127.0.0.1:${port}${path}`,
    reset: () => ask('reset'),
    stats: () => ask('stats'),
    collect: () => ask('collect'),
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--child')) runChild();
