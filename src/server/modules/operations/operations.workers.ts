import type { EventData } from "@/contract/events";
import type { AppDeps } from "@/server/deps";
import { byPath, protectionOf } from "@/server/modules/files/files.repository";
import { discardHidden } from "@/server/modules/files/tree.repository";
import { queueLanded } from "@/server/modules/media/render.service";
import type { JobKind } from "@/server/workers/job-runner";
import {
  abandonedStage,
  addProgress,
  doneItems,
  finishItem,
  markEnded,
  markReported,
  markStarted,
  operationRow,
  pendingItems,
  setStage,
} from "./operations.repository";
import { OPERATION_JOB } from "./operations.service";
import {
  type CopyContext,
  freshName,
  ItemError,
  type ItemOutcome,
  originalsMark,
  revealStage,
  stageMark,
  stageStep,
  transferItem,
} from "./tree-copy";

export interface OperationTuning {
  /** A batch (one transaction) ends after the item that brings it to this many files. */
  batchFiles?: number;
  /** A folder item with more files is copied (or moved) in steps of this many rows. */
  stageRows?: number;
  /** Runs after each committed batch (tests stop a worker mid-job with it). */
  afterBatch?: () => void;
}

/** Items per batch at most, however small: the counters and a cancel are seen this often. */
const BATCH_ITEMS = 200;
const BATCH_FILES = 2000;
const EVENT_PATHS = 100;

type Step = "more" | "ended";

/** A copy step's or a discard's rows, and the threshold above which a folder is copied in steps. */
const STAGE_ROWS = 2000;

/**
 * Deletes one batch of hidden rows: the copy of an item that will not be done (the job was
 * cancelled or failed, or the item skipped), or the originals of a folder moved in steps. True
 * while there was something to delete.
 */
function discardStep(deps: AppDeps, id: string, rows: number): boolean {
  const left = abandonedStage(deps.db, id);
  if (!left) return false;
  const mark = stageMark(id, left.idx);
  const hidden = left.stage_state === "purging" ? originalsMark(mark) : mark;
  if (discardHidden(deps.db, hidden, rows) === 0) {
    setStage(deps.db, id, left.idx, { state: null, name: null, cursor: null });
  }
  return true;
}

/**
 * One batch in one transaction: the job's status is read first (a cancel that committed stops the
 * job before its next item), then whole items, each done or not at all, with their outcomes and
 * the counters; or one step of a big folder's staged copy (tree-copy.ts). A job re-claimed after
 * a crash resumes at the first pending item (or step). When an item cannot be done, the items
 * before it in the batch commit and the job fails. A job that ended first discards what is left
 * of hidden copies, a batch at a time, then records its event.
 */
function runBatch(
  deps: AppDeps,
  id: string,
  tuning: Required<Omit<OperationTuning, "afterBatch">>,
): Step {
  const { db } = deps;
  return db
    .transaction((): Step => {
      const now = deps.clock.now();
      const op = operationRow(db, id);
      if (!op) return "ended";
      const items = op.status === "running" ? pendingItems(db, id, BATCH_ITEMS) : [];
      if (items.length === 0) {
        if (discardStep(deps, id, tuning.stageRows)) return "more";
        markEnded(db, id, "completed", null, now);
        report(deps, id);
        return "ended";
      }
      const ctx: CopyContext = {
        db,
        move: op.kind === "move",
        versionsKeep: deps.config.versionsKeep,
        now,
        // Renditions are kept by content: a copy queues only what its content still lacks.
        copied: (file, path) =>
          queueLanded(deps, op.workspace_id, {
            sha256: file.sha256!,
            mime: file.mime,
            path,
            protected: () => protectionOf(db, file.id) !== null,
          }),
      };
      const progress = { files: 0, bytes: 0, filesDrift: 0, bytesDrift: 0 };
      const dest = byPath(db, op.workspace_id, op.destination);
      let failure: string | null =
        dest?.is_file === 0 ? null : `"${op.destination}" is no longer a folder`;
      for (const item of items) {
        if (failure || progress.files >= tuning.batchFiles) break;
        const src = byPath(db, op.workspace_id, item.path);
        const staged =
          item.stage_state !== null ||
          (src?.is_file === 0 &&
            item.files > tuning.stageRows &&
            freshName(db, src, dest!, item.choice) !== null);
        // A step of a staged copy is a batch's whole work.
        if (staged && progress.files > 0) break;
        try {
          let outcome: ItemOutcome;
          if (!src) {
            outcome = { status: "skipped" };
          } else if (staged && item.stage_state !== "staged") {
            const name = item.stage_name ?? freshName(db, src, dest!, item.choice)!;
            const mark = stageMark(id, item.idx);
            const step = db.transaction(() =>
              stageStep(ctx, src, dest!, name, mark, item.stage_cursor, tuning.stageRows),
            )();
            setStage(db, id, item.idx, {
              state: step.done ? "staged" : "staging",
              name,
              cursor: step.cursor,
            });
            break;
          } else {
            // A savepoint: an item that fails leaves nothing behind, the ones before it stay.
            outcome = db.transaction(() =>
              staged
                ? revealStage(
                    ctx,
                    src,
                    dest!,
                    item.choice,
                    stageMark(id, item.idx),
                    item.stage_name!,
                  )
                : transferItem(ctx, src, dest!, item.choice),
            )();
          }
          if (outcome.status === "done") {
            finishItem(db, id, item.idx, "done", outcome.destinationPath);
            if (staged && ctx.move) {
              setStage(db, id, item.idx, { state: "purging", name: null, cursor: null });
            }
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
          if (staged) break;
        } catch (err) {
          if (!(err instanceof ItemError)) throw err;
          failure = err.message;
        }
      }
      addProgress(db, id, progress);
      // The next batch discards what is left of hidden copies, then records the event.
      if (failure) markEnded(db, id, "failed", failure.slice(0, 500), now);
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
        // A job cancelled while no worker ran it (a crash in between) is not started again, but
        // its batches still discard what it had hidden and record what it did.
        deps.db.transaction(() => markStarted(deps.db, operationId, deps.clock.now())).immediate();
        const sizes = {
          batchFiles: tuning.batchFiles ?? BATCH_FILES,
          stageRows: tuning.stageRows ?? STAGE_ROWS,
        };
        for (;;) {
          const step = runBatch(deps, operationId, sizes);
          if (step === "ended") return;
          tuning.afterBatch?.();
          // Requests (the files list above all) run between batches.
          await new Promise((resolve) => setImmediate(resolve));
        }
      } catch (err) {
        // An unexpected fault (a busy database): the runner retries; on the last attempt the
        // job ends failed, with what it did so far committed, and a new run of it discards any
        // hidden copy and records its event (this run's job is over for the runner).
        if (job.attempts >= job.maxAttempts) {
          const message = err instanceof Error ? err.message : String(err);
          deps.db
            .transaction(() => {
              const now = deps.clock.now();
              if (markEnded(deps.db, operationId, "failed", message.slice(0, 500), now))
                deps.jobs.enqueue(OPERATION_JOB, { operationId });
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
