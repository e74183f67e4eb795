/**
 * Median of a list of numbers; for an even count, the mean of the two middle values. Used for the
 * per-edge consensus box, where the median ignores one wild outlier that a mean would follow.
 * Throws on an empty list because "the median of nothing" has no safe default.
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
