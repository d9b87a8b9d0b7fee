import type { Transfer, TransferSpec, TransferState } from "@/contract/transfers";
import type { Tracker } from "./progress";
import type { ServiceClient } from "./service";

/**
 * Tells the service how the transfer goes (PATCH of the spec's progress URL): at most once per
 * the spec's minIntervalMs while it runs and at once on every state change. One request at a
 * time, so they arrive in order; counters are held at or above what the service already has
 * (an earlier run's report), since the service refuses counters that go backwards.
 */
export class ServiceProgress {
  private timer: NodeJS.Timeout | null = null;
  private sending: Promise<unknown> = Promise.resolve();
  private floor = { bytesDone: 0, filesDone: 0 };
  private lastRateBytes = 0;
  private lastRateAt = performance.now();

  constructor(
    private readonly service: ServiceClient | null,
    private readonly spec: Pick<TransferSpec, "progress" | "fileCount" | "totalBytes">,
    private readonly tracker: Tracker,
    private readonly warn: (message: string) => void,
  ) {}

  /** What the service had before this run. */
  resumeFrom(record: Pick<Transfer, "bytesDone" | "filesDone">) {
    this.floor = { bytesDone: record.bytesDone, filesDone: record.filesDone };
  }

  private body(status: TransferState, extra: { errorCode?: string; errorMessage?: string } = {}) {
    const t = this.tracker;
    const now = performance.now();
    const bytes = t.bytesConfirmed;
    const seconds = (now - this.lastRateAt) / 1000;
    const rateKbps =
      seconds > 0 ? Math.max(0, ((bytes - this.lastRateBytes) * 8) / 1000 / seconds) : 0;
    this.lastRateBytes = bytes;
    this.lastRateAt = now;
    // The service's totals stand (a send's as declared, a receive's counted from the tree, where
    // a file is counted once even when two paths bring it to two places here); the agent's own
    // go in only where the service has none.
    const { fileCount, totalBytes } = this.spec;
    const cap = (n: number, total: number | null) => (total === null ? n : Math.min(n, total));
    return {
      status,
      bytesDone: cap(Math.max(this.floor.bytesDone, bytes), totalBytes),
      filesDone: cap(Math.max(this.floor.filesDone, t.filesDone), fileCount),
      ...(totalBytes === null && t.bytesTotal !== null ? { bytesTotal: t.bytesTotal } : {}),
      ...(fileCount === null ? { filesTotal: t.filesTotal } : {}),
      rateKbps: Math.round(rateKbps),
      ...extra,
    };
  }

  private send(status: TransferState, extra?: { errorCode?: string; errorMessage?: string }) {
    const service = this.service;
    if (!service) return Promise.resolve(null);
    const next = this.sending.then(() =>
      service.report(this.spec.progress.url, this.body(status, extra)),
    );
    this.sending = next.catch(() => {});
    return next;
  }

  /** `running` now, then every minIntervalMs until `end`. */
  async start() {
    await this.send("running");
    this.timer = setInterval(() => {
      this.send("running").catch((e) =>
        this.warn(`progress report failed: ${(e as Error).message}`),
      );
    }, this.spec.progress.minIntervalMs);
    this.timer.unref();
  }

  /** The final state; its refusal (say, `completed` before the node committed) is the caller's to show. */
  async end(
    status: "completed" | "failed" | "paused",
    extra?: { errorCode?: string; errorMessage?: string },
  ) {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.send(status, extra);
  }
}
