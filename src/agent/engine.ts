import type { CreatedTransfer, TransferPriority, TransferSpec } from "@/contract/transfers";
import { Display, type FileOutcome, type OutputMode, Tracker } from "./progress";
import { ServiceProgress } from "./report";
import { AgentError, type ServiceClient } from "./service";
import type { TransferStateDir } from "./state";
import type { RateLimit } from "./upload";

/** Bad input from the person (exit code 2), as opposed to a transfer that failed (1). */
export class UsageError extends Error {}

export interface AgentOptions {
  /** Without one (`run` of a spec alone) nothing is reported to the service. */
  service: ServiceClient | null;
  stateDir: string;
  mode: OutputMode;
  streams?: number;
  priority?: TransferPriority;
  growingFileWaitSeconds?: number;
  password?: string;
  limit?: RateLimit | null;
}

export interface RunResult {
  ok: boolean;
  transferId: string;
  /** The state the service was left in (or would have been, without a service). */
  status: string;
  filesDone: number;
  failed: FileOutcome[];
  bytes: number;
}

/** Runs `work` over `items` with at most `n` in flight. */
export async function pool<T>(items: T[], n: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(n, items.length)) }, worker));
}

/**
 * An earlier run's transfer when it can still resume (not ended on the service), else null
 * and the stale state is cleared so the caller starts a new one.
 */
export async function resumable(state: TransferStateDir, service: ServiceClient | null) {
  const created = state.created();
  if (!created) return null;
  if (!service) return { created, record: null };
  try {
    const record = await service.transfer(created.transferId);
    if (record.status === "queued" || record.status === "running" || record.status === "paused")
      return { created, record };
  } catch (e) {
    if (!(e instanceof AgentError && e.status === 404)) throw e;
  }
  state.clear();
  return null;
}

/** A refusal ends the transfer; a network failure or a node that stayed down leaves it to resume. */
const isRefusal = (f: FileOutcome) => f.code !== "network" && f.code !== "http_5xx";

export const outcomeOf = (path: string, e: unknown): FileOutcome => {
  const err = e instanceof AgentError ? e : null;
  const code = err ? (err.status >= 500 ? "http_5xx" : err.code) : "network";
  return { path, ok: false, bytes: 0, error: (e as Error).message, code };
};

/**
 * The part send and receive share: totals, the display, the service's progress, `work` over
 * the files `streams` at a time, then the final state: `completed` when every file arrived,
 * `failed` when one was refused, `paused` (resumable by running the command again) when the
 * only failures were the network or the node being down.
 */
/** A run of a transfer that exists, over its files: what `runSend` and `runReceive` are given. */
export interface RunArgs<F> {
  created: CreatedTransfer;
  /** An earlier run's transfer goes on; `record` is what the service had of it. */
  resumed: boolean;
  record: { bytesDone: number; filesDone: number } | null;
  state: TransferStateDir;
  opts: AgentOptions;
  files: F[];
}

export async function runFiles<F extends { key: string; size: number | null }>(
  args: RunArgs<F> & {
    /** Whether a file an earlier run finished still counts as done. */
    stillDone?: (file: F) => boolean;
    work: (file: F, tracker: Tracker) => Promise<FileOutcome>;
  },
): Promise<RunResult> {
  const { created, state, opts, files } = args;
  const spec: TransferSpec = created.transferSpec;
  const tracker = new Tracker();
  tracker.filesTotal = files.length;
  tracker.bytesTotal = files.every((f) => f.size !== null)
    ? files.reduce((n, f) => n + f.size!, 0)
    : spec.totalBytes;
  const display = new Display(opts.mode, tracker);
  const progress = new ServiceProgress(opts.service, spec, tracker, (m) => display.error(m));
  if (args.record) progress.resumeFrom(args.record);
  display.start({
    transferId: created.transferId,
    direction: spec.direction,
    resumed: args.resumed,
  });
  const done = state.done();
  const todo: F[] = [];
  for (const f of files) {
    const d = done.get(f.key);
    if (d && (f.size === null || d.size === f.size) && (args.stillDone?.(f) ?? true)) {
      const outcome = { path: f.key, ok: true, bytes: d.size, sha256: d.sha256, skipped: true };
      tracker.finish(outcome);
      display.file(outcome);
    } else todo.push(f);
  }
  let status = "running";
  try {
    await progress.start();
    await pool(todo, spec.streams, async (f) => {
      const outcome = await args.work(f, tracker);
      if (outcome.ok && outcome.sha256)
        state.markDone({ path: f.key, size: outcome.bytes, sha256: outcome.sha256 });
      tracker.finish(outcome);
      display.file(outcome);
    });
    const refused = tracker.failed.filter(isRefusal);
    if (tracker.failed.length === 0) {
      await progress.end("completed");
      status = "completed";
      state.clear();
    } else if (refused.length > 0) {
      const first = refused[0]!;
      await progress.end("failed", {
        errorCode: first.code ?? "failed",
        errorMessage: `${refused.length} file(s) refused; first: ${first.error}`.slice(0, 500),
      });
      status = "failed";
      state.clear();
    } else {
      await progress.end("paused").catch(() => {});
      status = "paused";
    }
  } catch (e) {
    // The service refused a report (say, `completed` before the node committed every file).
    display.error((e as Error).message, e instanceof AgentError ? e.code : undefined);
    display.done({ ok: false, transferId: created.transferId, status });
    return {
      ok: false,
      transferId: created.transferId,
      status,
      filesDone: tracker.filesDone,
      failed: tracker.failed,
      bytes: tracker.bytesDone,
    };
  }
  const ok = status === "completed";
  display.done({ ok, transferId: created.transferId, status });
  return {
    ok,
    transferId: created.transferId,
    status,
    filesDone: tracker.filesDone,
    failed: tracker.failed,
    bytes: tracker.bytesDone,
  };
}
