import type { WaveformPeaks } from "@/contract/media-rules";

/**
 * The waveform at `width` pixel columns: for each column the lowest min and highest max of the
 * pairs under it (-128 to 127), so it draws at any width without losing a peak. With more
 * columns than pairs, each column shows the pair it falls on.
 */
export function columnPeaks(peaks: Pick<WaveformPeaks, "pairs">, width: number) {
  const columns = Math.max(0, Math.floor(width));
  const count = peaks.pairs.length / 2;
  const min = new Int8Array(columns);
  const max = new Int8Array(columns);
  if (count === 0) return { min, max };
  for (let x = 0; x < columns; x++) {
    const from = Math.floor((x * count) / columns);
    const to = Math.max(from + 1, Math.floor(((x + 1) * count) / columns));
    let lo = 127;
    let hi = -128;
    for (let i = from; i < to && i < count; i++) {
      lo = Math.min(lo, peaks.pairs[2 * i] ?? 0);
      hi = Math.max(hi, peaks.pairs[2 * i + 1] ?? 0);
    }
    min[x] = lo;
    max[x] = hi;
  }
  return { min, max };
}
