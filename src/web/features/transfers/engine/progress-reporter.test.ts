import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createProgressReporter, type ProgressReport } from "./progress-reporter";

describe("createProgressReporter", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  const setup = () => {
    const sent: ProgressReport[] = [];
    const reporter = createProgressReporter({
      minIntervalMs: 1000,
      send: async (r) => {
        sent.push(r);
      },
    });
    return { sent, reporter };
  };
  const running = (bytesDone: number, filesDone = 0): ProgressReport => ({
    status: "running",
    bytesDone,
    filesDone,
  });

  it("sends the first report at once and then at most one a second, the latest counters winning", async () => {
    const { sent, reporter } = setup();
    reporter.report(running(10));
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 1; i <= 50; i++) {
      reporter.report(running(10 + i * 100));
      await vi.advanceTimersByTimeAsync(10);
    }
    // 500 ms of chunks: nothing more yet.
    expect(sent.map((r) => r.bytesDone)).toEqual([10]);
    await vi.advanceTimersByTimeAsync(500);
    expect(sent.map((r) => r.bytesDone)).toEqual([10, 5010]);
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent).toHaveLength(2);
  });

  it("sends a change of status at once, even within the interval", async () => {
    const { sent, reporter } = setup();
    reporter.report(running(10));
    await vi.advanceTimersByTimeAsync(100);
    reporter.report({ status: "paused", bytesDone: 20, filesDone: 0 });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((r) => r.status)).toEqual(["running", "paused"]);
  });

  it("never reports counters lower than it reported before", async () => {
    const { sent, reporter } = setup();
    reporter.report(running(500, 2));
    await vi.advanceTimersByTimeAsync(1000);
    reporter.report(running(100, 1));
    await reporter.flush();
    expect(sent.at(-1)).toMatchObject({ bytesDone: 500, filesDone: 2 });
  });

  it("keeps one request in flight and sends what waited once it returns", async () => {
    let release: () => void = () => {};
    const sent: ProgressReport[] = [];
    const reporter = createProgressReporter({
      minIntervalMs: 1000,
      send: (r) => {
        sent.push(r);
        return new Promise<void>((resolve) => {
          release = resolve;
        });
      },
    });
    reporter.report(running(1));
    reporter.report({ status: "completed", bytesDone: 2, filesDone: 1 });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent.map((r) => r.status)).toEqual(["running", "completed"]);
  });

  it("flush sends the waiting report without waiting for the interval", async () => {
    const { sent, reporter } = setup();
    reporter.report(running(1));
    reporter.report(running(2));
    await reporter.flush();
    expect(sent.map((r) => r.bytesDone)).toEqual([1, 2]);
  });
});
