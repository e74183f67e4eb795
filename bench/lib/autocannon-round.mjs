// One autocannon run (programmatic API) and the few numbers the reports use.
import autocannon from 'autocannon';

/**
 * Runs autocannon against `url` and resolves to
 * { rps, ok, non2xx, errors, timeouts, p50, p99, duration } where rps counts only 2xx answers per second.
 * Give either `duration` (seconds) or `amount` (requests in total).
 */
export function autocannonRound({ url, method = 'POST', headers, body, connections, duration, amount, expectStatus }) {
  return new Promise((resolve, reject) => {
    const opts = { url, method, headers, body, connections, pipelining: 1, timeout: 30 };
    if (amount) opts.amount = amount;
    else opts.duration = duration;
    let wrongStatus = 0;
    const instance = autocannon(opts, (err, result) => {
      if (err) return reject(err);
      const ok = result['2xx'];
      resolve({
        rps: ok / result.duration,
        ok,
        non2xx: result.non2xx,
        wrongStatus,
        errors: result.errors,
        timeouts: result.timeouts,
        p50: result.latency.p50,
        p99: result.latency.p99,
        duration: result.duration,
        statusCodeStats: result.statusCodeStats,
      });
    });
    if (expectStatus) {
      instance.on('response', (_client, statusCode) => {
        if (statusCode !== expectStatus) wrongStatus++;
      });
    }
  });
}
