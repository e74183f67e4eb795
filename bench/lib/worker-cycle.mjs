// One simulated worker's checkout -> submit cycle over HTTP (undici Pool), shared by the checkout and
// webhooks suites: the same requests, the same counting of answers, the same idea of an error.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** The one box every simulated worker submits. */
export const SUBMIT_BODY = JSON.stringify({
  annotations: [{ label: 'car', center_x: 100, center_y: 80, width: 40, height: 30 }],
  image_width: 640,
  image_height: 480,
});

/** Counts of every answer of every cycle; errorSamples keeps the first ten errors. */
export function cycleTotals() {
  return { checkouts: 0, checkout201: 0, checkout200: 0, submit201: 0, noTask: 0, errors: 0, errorSamples: [], statusCodes: {} };
}

/**
 * One cycle of `worker` on `projectUuid`: a checkout, then, when it leased a task (201, or 200 for the
 * lease already held), the submit. Counts into `totals` and resolves to what happened:
 * { leased, noTask, submitted, error } and, for a lease, checkoutMs and checkoutAt (performance.now()
 * when the answer was read), for a submit answered 201, submitMs and submitAt. `thinkMs` is how long
 * the worker holds the lease before submitting, as a person drawing boxes would (0: submit at once).
 */
export async function workerCycle(pool, worker, checkoutBody, totals, thinkMs = 0) {
  const headers = { 'content-type': 'application/json', authorization: worker.auth.authorization };
  const result = { leased: false, noTask: false, submitted: false, error: false };
  const fail = (what) => {
    result.error = true;
    totals.errors++;
    if (totals.errorSamples.length < 10) totals.errorSamples.push(what);
    return result;
  };
  const countStatus = (kind, status) => {
    const k = `${kind} ${status}`;
    totals.statusCodes[k] = (totals.statusCodes[k] ?? 0) + 1;
  };

  let checkoutId;
  const t0 = performance.now();
  try {
    const res = await pool.request({ path: '/api/work/checkouts', method: 'POST', headers, body: checkoutBody });
    const text = await res.body.text();
    const t1 = performance.now();
    countStatus('checkout', res.statusCode);
    if (res.statusCode === 404 && text.includes('no task available')) {
      totals.noTask++;
      result.noTask = true;
      result.checkoutAt = t1;
      return result;
    }
    if (res.statusCode !== 201 && res.statusCode !== 200) return fail(`checkout ${res.statusCode} ${text.slice(0, 200)}`);
    totals.checkouts++;
    if (res.statusCode === 201) totals.checkout201++;
    else totals.checkout200++;
    checkoutId = JSON.parse(text).data.checkout_id;
    Object.assign(result, { leased: true, checkoutMs: t1 - t0, checkoutAt: t1 });
  } catch (e) {
    return fail(`checkout: ${e.message}`);
  }

  if (thinkMs > 0) await sleep(thinkMs);
  const s0 = performance.now();
  try {
    const res = await pool.request({ path: `/api/work/checkouts/${checkoutId}/submit`, method: 'POST', headers, body: SUBMIT_BODY });
    const text = await res.body.text();
    const s1 = performance.now();
    countStatus('submit', res.statusCode);
    if (res.statusCode !== 201) return fail(`submit ${res.statusCode} ${text.slice(0, 200)}`);
    totals.submit201++;
    Object.assign(result, { submitted: true, submitMs: s1 - s0, submitAt: s1 });
  } catch (e) {
    return fail(`submit: ${e.message}`);
  }
  return result;
}
