/** Time as the service sees it; tests inject a ManualClock to drive schedules. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

export class ManualClock implements Clock {
  constructor(private current = Date.parse("2026-01-01T00:00:00Z")) {}
  now() {
    return this.current;
  }
  set(ms: number) {
    this.current = ms;
  }
  advance(ms: number) {
    this.current += ms;
  }
}

const DAY_MS = 86_400_000;
const dayPrefixes = new Map<number, string>();
const pad2 = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * Same text as `new Date(ms).toISOString()`, about four times faster: the date part is cached
 * per day and the time part is plain arithmetic. A file listing renders 400 of these per page.
 */
export function toIso(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    prefix = new Date(day * DAY_MS).toISOString().slice(0, 11);
    if (dayPrefixes.size > 100_000) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const f = rest - s * 1000;
  return `${prefix}${pad2(h)}:${pad2(m)}:${pad2(s)}.${f < 10 ? "00" : f < 100 ? "0" : ""}${f}Z`;
}
export const toIsoOrNull = (ms: number | null | undefined) => (ms == null ? null : toIso(ms));
