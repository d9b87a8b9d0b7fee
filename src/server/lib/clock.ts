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

export const toIso = (ms: number) => new Date(ms).toISOString();
export const toIsoOrNull = (ms: number | null | undefined) => (ms == null ? null : toIso(ms));
