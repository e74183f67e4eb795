// Small statistics and formatting helpers for the benchmark suites.

/** Median of a list of numbers (mean of the two middle values for an even count). */
export function median(values) {
  const xs = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return NaN;
  const mid = Math.floor(xs.length / 2);
  return xs.length % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

/** The p-th percentile (nearest rank) of numbers sorted ascending; NaN for none. */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** (after - before) / n for each field of two readings of the same counters (null stays null). */
export function perTask(before, after, n) {
  const out = {};
  for (const k of Object.keys(before)) out[k] = before[k] === null || after[k] === null ? null : (after[k] - before[k]) / n;
  return out;
}

/** The median of each field over a list of objects of the same shape (null if any run has none). */
export function medianOf(objects) {
  const out = {};
  for (const k of Object.keys(objects[0])) out[k] = objects.some((o) => o[k] === null) ? null : median(objects.map((o) => o[k]));
  return out;
}

export function min(values) {
  return Math.min(...values);
}

export function max(values) {
  return Math.max(...values);
}

/** 12345.6 -> "12,346"; keeps `digits` decimals. */
export function fmt(value, digits = 0) {
  if (!Number.isFinite(value)) return String(value);
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A plain-text table: rows are arrays of cells, the first row is the header. */
export function table(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)));
  const line = (r) => r.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}
