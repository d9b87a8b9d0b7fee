/*
 * The rate and the time left of anything that counts up (a job's items, an upload's bytes), from
 * readings taken as it goes: the console's jobs and uploads, the portal page and the agent use
 * this one estimate. Plain arithmetic with the reading's time given by the caller, no clock and no
 * DOM, so it runs in the browser and in Node (the agent) alike.
 */

export interface Sample {
  /** When the counter was read, in ms (any clock, as long as one estimate keeps to it). */
  at: number;
  done: number;
}

/**
 * Readings older than this leave the estimate: the rate is the recent one, not the average since
 * the start, so a stall or a faster connection shows within seconds. Ten seconds, as the console
 * and the portal page had (the agent had five): long enough that the slowest reader, the agent's
 * plain output every 5 s or a job polled every few seconds, still has two readings in it.
 */
export const RATE_WINDOW_MS = 10_000;

/**
 * No rate until the readings span this much: over a shorter span (the console had 500 ms, the
 * portal page 1 s) one burst of progress events makes the figure jump about.
 */
export const RATE_MIN_SPAN_MS = 1_000;

export interface Estimate {
  /** Units a second; null until readings RATE_MIN_SPAN_MS apart exist. */
  rate: number | null;
  /** Whole seconds left; null while the rate is unknown or zero, or the total is unknown. */
  etaSeconds: number | null;
}

/**
 * Adds a reading and drops those out of the window. An unchanged reading still counts (a stall
 * slows the rate); one no newer than the last adds nothing (a repeated poll answer); a lower count
 * means the work started again, and the readings before it are forgotten.
 */
export function addSample(samples: readonly Sample[], sample: Sample): Sample[] {
  const last = samples.at(-1);
  if (last && sample.at <= last.at) return [...samples];
  return [
    ...samples.filter((s) => sample.at - s.at <= RATE_WINDOW_MS && s.done <= sample.done),
    sample,
  ];
}

/** The rate over the readings and the time left from the last, towards `total` if known. */
export function estimate(samples: readonly Sample[], total: number | null): Estimate {
  const first = samples[0];
  const last = samples.at(-1);
  if (!first || !last || last.at - first.at < RATE_MIN_SPAN_MS)
    return { rate: null, etaSeconds: null };
  const rate = Math.max(0, ((last.done - first.done) * 1000) / (last.at - first.at));
  if (total === null || rate === 0) return { rate, etaSeconds: null };
  return { rate, etaSeconds: Math.max(0, Math.ceil((total - last.done) / rate)) };
}

/**
 * Whole seconds left (`etaSeconds`) as "45 s", "3 min 20 s", "2 h 5 min": the two largest units,
 * a zero part left out.
 */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min${seconds % 60 ? ` ${seconds % 60} s` : ""}`;
  return `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ""}`;
}
