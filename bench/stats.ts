/**
 * The nearest-rank percentile: the smallest sample with at least p % of the samples at or
 * below it. (Indexing at floor(p × n) instead makes the "p95" of 20 samples their maximum.)
 */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
