import type { EventData } from "@/contract/events";
import type { AppDeps } from "@/server/deps";
import { byPath } from "@/server/modules/files/files.repository";
import type { JobKind } from "@/server/workers/job-runner";
import {
  addProgress,
  doneItems,
  finishItem,
  markEnded,
  markReported,
  markStarted,
  operationRow,
  pendingItems,
} from "./operations.repository";
import { OPERATION_JOB } from "./operations.service";
import { ItemError, transferItem } from "./tree-copy";

export interface OperationTuning {
  /** A batch (one transaction) ends after the item that brings it to this many files. */
  batchFiles?: number;
  /** Runs after each committed batch (tests stop a worker mid-job with it). */
  afterBatch?: () => void;
}

/** Items per batch at most, however small: the counters and a cancel are seen this often. */
const BATCH_ITEMS = 200;
const BATCH_FILES = 2000;
const EVENT_PATHS = 100;

type Step = "more" | "ended";

/**
 * One batch in one transaction: the job's status is read first (a cancel that committed stops the
 * job before its next item), then whole items, each done or not at all, with their outcomes and
 * the counters. A job re-claimed after a crash resumes at the first pending item. When an item
 * cannot be done, the items before it in the batch commit and the job fails.
 */
function runBatch(deps: AppDeps, id: string, batchFiles: number): Step {
  const { db } = deps;
  return db
    .transaction((): Step => {
      const now = deps.clock.now();
      const op = operationRow(db, id);
      if (!op) return "ended";
      if (op.status !== "running") {
        report(deps, id);
        return "ended";
      }
      const items = pendingItems(db, id, BATCH_ITEMS);
      if (items.length === 0) {
        markEnded(db, id, "completed", null, now);
        report(deps, id);
        return "ended";
      }
      const progress = { files: 0, bytes: 0, filesDrift: 0, bytesDrift: 0 };
      const dest = byPath(db, op.workspace_id, op.destination);
      let failure: string | null =
        dest?.is_file === 0 ? null : `"${op.destination}" is no longer a folder`;
      for (const item of items) {
        if (failure || progress.files >= batchFiles) break;
        const src = byPath(db, op.workspace_id, item.path);
        try {
          // A savepoint: an item that fails leaves nothing behind, the ones before it stay.
          const outcome = src
            ? db.transaction(() =>
                transferItem(
                  { db, move: op.kind === "move", versionsKeep: deps.config.versionsKeep, now },
                  src,
                  dest!,
                  item.choice,
                ),
              )()
            : ({ status: "skipped" } as const);
          if (outcome.status === "done") {
            finishItem(db, id, item.idx, "done", outcome.destinationPath);
            progress.files += outcome.files;
            progress.bytes += outcome.bytes;
            progress.filesDrift += outcome.files - item.files;
            progress.bytesDrift += outcome.bytes - item.bytes;
          } else {
            // Skipped (taken and `skip` chosen, or gone since the plan): counted as handled.
            finishItem(db, id, item.idx, "skipped", null);
            progress.files += item.files;
            progress.bytes += item.bytes;
          }
        } catch (err) {
          if (!(err instanceof ItemError)) throw err;
          failure = err.message;
        }
      }
      addProgress(db, id, progress);
      if (failure) {
        markEnded(db, id, "failed", failure.slice(0, 500), now);
        report(deps, id);
        return "ended";
      }
      return "more";
    })
    .immediate();
}

/**
 * The closing event, once, when any item was done: `file.moved` or `file.copied` with where the
 * first 100 items went and came from, whatever the job's end (a cancelled or failed job moved
 * what it moved).
 */
function report(deps: AppDeps, id: string) {
  const op = operationRow(deps.db, id);
  if (!op || op.reported) return;
  markReported(deps.db, id);
  const done = doneItems(deps.db, id, EVENT_PATHS);
  if (done.length === 0) return;
  const data: EventData<"file.moved"> = {
    paths: done.map((d) => d.destination_path),
    from: done.map((d) => d.path),
    jobId: id,
    destination: op.destination,
    status: op.status as EventData<"file.moved">["status"],
    files: op.files_done,
    bytes: op.bytes_done,
  };
  deps.events.record(op.workspace_id, op.kind === "move" ? "file.moved" : "file.copied", data);
}

/** The job kind; `tuning` is for tests. */
export function operationJob(deps: AppDeps, tuning: OperationTuning = {}): JobKind {
  return {
    maxAttempts: 5,
    backoffMs: () => 5_000,
    run: async (payload, job) => {
      const { operationId } = payload as { operationId: string };
      try {
        const started = deps.db
          .transaction(() => {
            if (markStarted(deps.db, operationId, deps.clock.now())) return true;
            // Cancelled while no worker ran it (a crash in between): what it did is still told.
            report(deps, operationId);
            return false;
          })
          .immediate();
        if (!started) return;
        for (;;) {
          const step = runBatch(deps, operationId, tuning.batchFiles ?? BATCH_FILES);
          if (step === "ended") return;
          tuning.afterBatch?.();
          // Requests (the files list above all) run between batches.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (err) {
        // An unexpected fault (a busy database): the runner retries; on the last attempt the
        // job ends failed, with what it did so far committed.
        if (job.attempts >= job.maxAttempts) {
          const message = err instanceof Error ? err.message : String(err);
          deps.db
            .transaction(() => {
              if (
                markEnded(deps.db, operationId, "failed", message.slice(0, 500), deps.clock.now())
              )
                report(deps, operationId);
            })
            .immediate();
        }
        throw err;
      }
    },
  };
}

export function registerOperationsWorkers(deps: AppDeps) {
  deps.jobs.register(OPERATION_JOB, operationJob(deps));
}
