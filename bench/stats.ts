/**
 * The nearest-rank percentile: the smallest sample with at least p % of the samples at or
 * below it. (Indexing at floor(p × n) instead makes the "p95" of 20 samples their maximum.)
 */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/**
 * Prints one figure: its label, its value, and against a target whether it was met. Without a
 * target (`ok` null) it is a reference figure and says nothing more.
 */
export function figureLine(labelWidth: number) {
  return (label: string, value: string, target: string, ok: boolean | null) =>
    console.log(
      `${label.padEnd(labelWidth)} ${value.padStart(12)}   ${target ? `target ${target.padEnd(10)}` : "".padEnd(17)} ${ok === null ? "" : ok ? "ok" : "MISSED"}`,
    );
}

/** Milliseconds as a whole number with thousands separators, or with 2 decimals below 100. */
export const formatMs = (n: number, decimals = 0) =>
  `${decimals ? n.toFixed(decimals) : Math.round(n).toLocaleString("en")} ms`;
