import { describe, expect, it } from "vitest";
import {
  addSample,
  estimate,
  formatDuration,
  RATE_MIN_SPAN_MS,
  RATE_WINDOW_MS,
  type Sample,
} from "./rate";

describe("estimate", () => {
  it("knows nothing from one reading, nor from readings too close together", () => {
    expect(estimate([{ at: 0, done: 0 }], 100)).toEqual({ rate: null, etaSeconds: null });
    const close = [
      { at: 0, done: 0 },
      { at: RATE_MIN_SPAN_MS - 1, done: 50 },
    ];
    expect(estimate(close, 100)).toEqual({ rate: null, etaSeconds: null });
  });

  it("takes the rate over the readings and the time left from the last", () => {
    const samples = [
      { at: 0, done: 0 },
      { at: 1000, done: 100 },
      { at: 2000, done: 200 },
    ];
    expect(estimate(samples, 1000)).toEqual({ rate: 100, etaSeconds: 8 });
    // A part of a second left counts as a whole one: the estimate never says "0 s" too early.
    expect(estimate(samples, 250)).toEqual({ rate: 100, etaSeconds: 1 });
    expect(estimate(samples, 200)).toEqual({ rate: 100, etaSeconds: 0 });
  });

  it("has a rate but no ETA while the total is unknown or nothing moves", () => {
    const still = [
      { at: 0, done: 5 },
      { at: 2000, done: 5 },
    ];
    expect(estimate(still, 100)).toEqual({ rate: 0, etaSeconds: null });
    const moving = [
      { at: 0, done: 0 },
      { at: 1000, done: 50 },
    ];
    expect(estimate(moving, null)).toEqual({ rate: 50, etaSeconds: null });
  });
});

describe("addSample", () => {
  it("forgets readings older than the window, so the rate is the recent one", () => {
    let samples: Sample[] = [{ at: 0, done: 0 }];
    samples = addSample(samples, { at: RATE_WINDOW_MS, done: 10 });
    samples = addSample(samples, { at: RATE_WINDOW_MS + 1000, done: 1010 });
    expect(samples.map((s) => s.at)).toEqual([RATE_WINDOW_MS, RATE_WINDOW_MS + 1000]);
    expect(estimate(samples, 2010).rate).toBe(1000);
  });

  it("keeps a reading that did not move: a stall slows the rate", () => {
    let samples = addSample([], { at: 0, done: 0 });
    samples = addSample(samples, { at: 2_000, done: 2_000_000 });
    expect(estimate(samples, null).rate).toBe(1_000_000);
    samples = addSample(samples, { at: 12_000, done: 2_000_000 });
    expect(samples.map((s) => s.at)).toEqual([2_000, 12_000]);
    expect(estimate(samples, null).rate).toBe(0);
    // The reading at 2 s is now out of the window; the two left are too close for a rate.
    samples = addSample(samples, { at: 12_500, done: 3_000_000 });
    expect(samples.map((s) => s.at)).toEqual([12_000, 12_500]);
    expect(estimate(samples, null).rate).toBeNull();
  });

  it("adds nothing for a reading no newer than the last (a repeated poll answer)", () => {
    const samples = [
      { at: 0, done: 0 },
      { at: 1000, done: 10 },
    ];
    expect(addSample(samples, { at: 1000, done: 20 })).toEqual(samples);
    expect(addSample(samples, { at: 500, done: 20 })).toEqual(samples);
  });

  it("forgets readings from before a restart at a lower count", () => {
    expect(addSample([{ at: 0, done: 500 }], { at: 100, done: 0 })).toEqual([{ at: 100, done: 0 }]);
  });
});

describe("formatDuration", () => {
  it("says durations in the two largest units, a zero part left out", () => {
    expect(formatDuration(45)).toBe("45 s");
    expect(formatDuration(200)).toBe("3 min 20 s");
    expect(formatDuration(250)).toBe("4 min 10 s");
    expect(formatDuration(240)).toBe("4 min");
    expect(formatDuration(3_900)).toBe("1 h 5 min");
    expect(formatDuration(7500)).toBe("2 h 5 min");
    expect(formatDuration(7_199)).toBe("1 h 59 min");
  });
});
