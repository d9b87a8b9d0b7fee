import type { UpdateTransferBody } from "@/contract/transfers";

export type ProgressReport = Omit<UpdateTransferBody, "bytesTotal" | "filesTotal">;

/**
 * Reports a transfer's progress to the service at most once per `minIntervalMs` (the latest
 * counters win; not one PATCH per chunk) and at once on every change of status. One request is
 * in flight at a time, so reports arrive in order; counters never go backwards, since the
 * service refuses that (a file restarted from zero would otherwise report less than before).
 */
export function createProgressReporter(o: {
  minIntervalMs: number;
  send(report: ProgressReport): Promise<unknown>;
  now?: () => number;
}) {
  const now = o.now ?? Date.now;
  let lastSentAt = Number.NEGATIVE_INFINITY;
  let lastStatus: ProgressReport["status"] | null = null;
  let high = { bytesDone: 0, filesDone: 0 };
  let pending: ProgressReport | null = null;
  let inFlight: Promise<void> | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const dispatch = () => {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!pending || inFlight) return;
    const report = pending;
    pending = null;
    lastSentAt = now();
    lastStatus = report.status;
    inFlight = o
      .send(report)
      // A lost report is made good by the next one; the engine does not stop for it.
      .catch(() => {})
      .then(() => {
        inFlight = null;
        schedule();
      });
  };

  const schedule = () => {
    if (!pending || inFlight) return;
    const wait = lastSentAt + o.minIntervalMs - now();
    if (pending.status !== lastStatus || wait <= 0) dispatch();
    else if (!timer) timer = setTimeout(dispatch, wait);
  };

  return {
    report(report: ProgressReport) {
      high = {
        bytesDone: Math.max(high.bytesDone, report.bytesDone),
        filesDone: Math.max(high.filesDone, report.filesDone),
      };
      pending = { ...report, ...high };
      schedule();
    },
    /** Sends what is waiting now and resolves once nothing is in flight. */
    async flush() {
      while (pending || inFlight) {
        if (inFlight) await inFlight;
        else dispatch();
      }
    },
    /** Stops any trailing report (the transfer was cancelled or ended elsewhere). */
    stop() {
      if (timer) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
