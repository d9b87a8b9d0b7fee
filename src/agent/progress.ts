/**
 * What a run has done so far, and how it is shown: bars with rate and ETA on a terminal (one
 * line per file in flight and a total line, redrawn in place), plain lines otherwise, or one
 * JSON object per line with --json (events start, file, progress, done, error).
 */

import { addSample, type Estimate, estimate, type Sample } from "@/browser/rate";

export type OutputMode = "tty" | "plain" | "json";

interface Active {
  path: string;
  size: number;
  /** Sent or received so far: what the bar shows. */
  bytes: number;
  /** What the other side holds for sure: what the service is told. */
  confirmed: number;
}

export interface FileOutcome {
  path: string;
  ok: boolean;
  bytes: number;
  sha256?: string;
  /** Done in an earlier run, so not moved again. */
  skipped?: boolean;
  /** A download that went on from a partial file of this many bytes. */
  resumedFrom?: number;
  error?: string;
  code?: string;
}

export class Tracker {
  filesTotal = 0;
  bytesTotal: number | null = 0;
  filesDone = 0;
  /** Bytes of finished files plus what the node confirmed of files in flight. */
  private bytesFinished = 0;
  readonly failed: FileOutcome[] = [];
  readonly active = new Map<string, Active>();
  private samples: Sample[] = [];
  readonly startedAt = performance.now();

  get bytesDone() {
    let n = this.bytesFinished;
    for (const a of this.active.values()) n += a.bytes;
    return n;
  }

  get bytesConfirmed() {
    let n = this.bytesFinished;
    for (const a of this.active.values()) n += a.confirmed;
    return n;
  }

  begin(path: string, size: number) {
    this.active.set(path, { path, size, bytes: 0, confirmed: 0 });
  }

  /** Bytes of a file in flight; they never go backwards (a retried chunk is sent again). */
  bytes(path: string, bytes: number, confirmed = false) {
    const a = this.active.get(path);
    if (!a) return;
    const n = a.size ? Math.min(bytes, a.size) : bytes;
    if (n > a.bytes) a.bytes = n;
    if (confirmed && n > a.confirmed) a.confirmed = n;
  }

  finish(outcome: FileOutcome) {
    this.active.delete(outcome.path);
    if (outcome.ok) {
      this.filesDone++;
      this.bytesFinished += outcome.bytes;
    } else this.failed.push(outcome);
  }

  /** Reads the bytes done now: bytes per second over the last few seconds, and seconds left. */
  estimate(now = performance.now()): Estimate {
    this.samples = addSample(this.samples, { at: now, done: this.bytesDone });
    return estimate(this.samples, this.bytesTotal);
  }
}

const units = ["B", "KB", "MB", "GB", "TB"];
/** Decimal units, as the console shows sizes. */
export function formatBytes(n: number) {
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return u === 0 ? `${Math.round(v)} B` : `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[u]}`;
}

function formatEta(seconds: number) {
  if (!Number.isFinite(seconds)) return "--:--";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(2, "0");
  const ss = String(s % 60).padStart(2, "0");
  return h ? `${h}:${mm}:${ss}` : `${mm}:${ss}`;
}

function bar(fraction: number, width = 24) {
  const full = Math.round(Math.max(0, Math.min(1, fraction)) * width);
  return `[${"#".repeat(full)}${"-".repeat(width - full)}]`;
}

const shorten = (s: string, n: number) => (s.length <= n ? s : `…${s.slice(s.length - n + 1)}`);

/** How often each mode shows progress. */
const INTERVAL_MS: Record<OutputMode, number> = { tty: 200, plain: 5000, json: 1000 };

export class Display {
  private timer: NodeJS.Timeout | null = null;
  private drawn = 0;

  constructor(
    private readonly mode: OutputMode,
    private readonly tracker: Tracker,
    private readonly out: NodeJS.WriteStream = process.stdout,
  ) {}

  private json(o: object) {
    this.out.write(`${JSON.stringify(o)}\n`);
  }

  /** A line above the bars (which are drawn again below it). */
  private say(text: string) {
    this.clear();
    this.out.write(`${text}\n`);
    if (this.mode === "tty") this.draw();
  }

  start(info: { transferId: string; direction: string; resumed: boolean }) {
    const t = this.tracker;
    if (this.mode === "json")
      this.json({ event: "start", ...info, files: t.filesTotal, bytes: t.bytesTotal });
    else
      this.say(
        `${info.resumed ? "Resuming" : "Starting"} ${info.direction} ${info.transferId}: ${t.filesTotal} files, ${t.bytesTotal === null ? "size unknown" : formatBytes(t.bytesTotal)}`,
      );
    this.timer = setInterval(() => this.tick(), INTERVAL_MS[this.mode]);
    this.timer.unref();
  }

  file(o: FileOutcome) {
    if (this.mode === "json") this.json({ event: "file", ...o });
    else if (!o.ok) this.say(`FAILED ${o.path}: ${o.error}`);
    else if (this.mode === "plain")
      this.say(`${o.skipped ? "already done" : "done"} ${o.path} (${formatBytes(o.bytes)})`);
  }

  error(message: string, code?: string) {
    if (this.mode === "json") this.json({ event: "error", message, ...(code ? { code } : {}) });
    else {
      this.clear();
      process.stderr.write(`error: ${message}\n`);
    }
  }

  private totals() {
    const t = this.tracker;
    const { rate, etaSeconds } = t.estimate();
    return { rate: rate ?? 0, eta: etaSeconds ?? Number.POSITIVE_INFINITY };
  }

  private tick() {
    if (this.mode === "tty") {
      this.clear();
      this.draw();
      return;
    }
    const t = this.tracker;
    const { rate, eta } = this.totals();
    if (this.mode === "json")
      this.json({
        event: "progress",
        filesDone: t.filesDone,
        filesTotal: t.filesTotal,
        bytesDone: t.bytesDone,
        bytesTotal: t.bytesTotal,
        rateBytesPerSecond: Math.round(rate),
        etaSeconds: Number.isFinite(eta) ? Math.round(eta) : null,
        active: [...t.active.values()],
      });
    else
      this.say(
        `${t.filesDone}/${t.filesTotal} files, ${formatBytes(t.bytesDone)} of ${t.bytesTotal === null ? "?" : formatBytes(t.bytesTotal)}, ${formatBytes(rate)}/s, ETA ${formatEta(eta)}`,
      );
  }

  private draw() {
    const t = this.tracker;
    const cols = this.out.columns || 80;
    const lines: string[] = [];
    for (const a of [...t.active.values()].slice(0, 8)) {
      const pct = a.size ? a.bytes / a.size : 1;
      lines.push(
        `${bar(pct, 20)} ${String(Math.floor(pct * 100)).padStart(3)}% ${shorten(a.path, cols - 32)}`,
      );
    }
    const { rate, eta } = this.totals();
    const frac = t.bytesTotal
      ? t.bytesDone / t.bytesTotal
      : t.filesTotal
        ? t.filesDone / t.filesTotal
        : 0;
    lines.push(
      `${bar(frac)} ${t.filesDone}/${t.filesTotal} files ${formatBytes(t.bytesDone)} ${formatBytes(rate)}/s ETA ${formatEta(eta)}${t.failed.length ? ` ${t.failed.length} failed` : ""}`,
    );
    for (const l of lines) this.out.write(`${l.slice(0, cols - 1)}\n`);
    this.drawn = lines.length;
  }

  /** Removes the bars so a line can be printed where they were. */
  private clear() {
    if (this.mode !== "tty" || this.drawn === 0) return;
    this.out.write(`\x1b[${this.drawn}A\x1b[0J`);
    this.drawn = 0;
  }

  done(info: { ok: boolean; transferId: string; status: string }) {
    if (this.timer) clearInterval(this.timer);
    const t = this.tracker;
    const seconds = (performance.now() - t.startedAt) / 1000;
    if (this.mode === "json") {
      this.json({
        event: "done",
        ...info,
        filesDone: t.filesDone,
        filesFailed: t.failed.length,
        bytesDone: t.bytesDone,
        seconds: Math.round(seconds * 10) / 10,
        failed: t.failed,
      });
      return;
    }
    this.clear();
    this.out.write(
      `${info.ok ? "Done" : "Finished with errors"}: ${t.filesDone}/${t.filesTotal} files, ${formatBytes(t.bytesDone)} in ${seconds.toFixed(1)} s (${formatBytes(t.bytesDone / Math.max(seconds, 0.001))}/s); transfer ${info.transferId} ${info.status}\n`,
    );
    for (const f of t.failed) process.stderr.write(`failed: ${f.path}: ${f.error}\n`);
  }
}
