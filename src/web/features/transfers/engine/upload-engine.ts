// The console's upload engine (client `web`). Loaded on the first upload, never with a page:
// tus-js-client and hash-wasm stay out of every first load (npm run bench:bundle).
import type { QueryClient } from "@tanstack/react-query";
import * as tus from "tus-js-client";
import { ApiError } from "@/browser/api-error";
import {
  RETRY_DELAYS,
  retryable,
  sha256OfFile,
  statusOf,
  uploadError,
} from "@/browser/upload-file";
import { PROGRESS_MIN_INTERVAL_MS, TRANSFER_STREAMS_DEFAULT } from "@/contract/rules";
import { addSample, estimate, type Sample } from "@/web/features/jobs";
import {
  type Upload,
  type UploadFile,
  useUploadsStore,
} from "@/web/features/transfers/state/uploads-store";
import { describeError } from "@/web/lib/api-client";
import { filesKeys } from "@/web/lib/query-keys/files";
import { useSessionStore } from "@/web/stores/session-store";
import { createTransfer } from "../api/create-transfer";
import { transfersKeys } from "../api/transfers-keys";
import { updateTransfer } from "../api/update-transfer";
import {
  kbpsOf,
  matchPicked,
  type PickedFile,
  planUpload,
  uploadLockName,
} from "../transfer-model";
import { createProgressReporter } from "./progress-reporter";

/** Live counters reach the store (and so the tray) this often, not on every XHR progress event. */
const STORE_FLUSH_MS = 250;
/** `completed` is refused until the node has committed every file: asked again this often. */
const COMPLETE_ATTEMPTS = 10;
const COMPLETE_RETRY_MS = 500;

interface FileRun {
  file: File | null;
  tus: tus.Upload | null;
  bytes: number;
  /**
   * Bumped by every start and stop: a file still being hashed when it was paused (and perhaps
   * started again) sees that it is no longer the current attempt.
   */
  attempt: number;
}

interface Run {
  id: string;
  queryClient: QueryClient;
  files: FileRun[];
  active: Set<number>;
  reporter: ReturnType<typeof createProgressReporter>;
  samples: Sample[];
  flushTimer: ReturnType<typeof setTimeout> | null;
  filesChangedAt: number;
  /** Gives back the Web Lock that tells other tabs this one runs the upload. */
  unlock(): void;
}

const runs = new Map<string, Run>();

function endRun(run: Run) {
  runs.delete(run.id);
  run.unlock();
}
const store = () => useUploadsStore.getState();
const uploadOf = (id: string) => store().uploads[id];

const setFile = (id: string, index: number, change: Partial<UploadFile>) =>
  store().updateFiles(id, (f, i) => (i === index ? { ...f, ...change } : f));

function newRun(id: string, queryClient: QueryClient, upload: Upload): Run {
  const run: Run = {
    id,
    queryClient,
    files: upload.files.map((f) => ({ file: null, tus: null, bytes: f.bytesDone, attempt: 0 })),
    active: new Set(),
    reporter: createProgressReporter({
      minIntervalMs: Math.max(upload.spec.progress.minIntervalMs, PROGRESS_MIN_INTERVAL_MS),
      send: (report) => updateTransfer(queryClient, id, report),
    }),
    samples: [],
    flushTimer: null,
    filesChangedAt: 0,
    unlock: () => {},
  };
  // Held while this tab runs the upload (and let go by the browser if the tab dies), so another
  // tab does not offer to resume it too (use-uploads-elsewhere.ts).
  void navigator.locks
    ?.request(
      uploadLockName(id),
      () =>
        new Promise<void>((resolve) => {
          run.unlock = resolve;
        }),
    )
    .catch(() => {});
  runs.set(id, run);
  return run;
}

function runFor(id: string, queryClient: QueryClient) {
  const upload = uploadOf(id);
  if (!upload) return null;
  return runs.get(id) ?? newRun(id, queryClient, upload);
}

const totals = (run: Run, upload: Upload) => ({
  bytesDone: run.files.reduce((sum, f) => sum + f.bytes, 0),
  filesDone: upload.files.filter((f) => f.status === "done").length,
});

/** The service's status for what the engine is doing. */
const reportedStatus = (upload: Upload) =>
  upload.status === "paused" || upload.status === "waiting" ? "paused" : "running";

/** Counters to the store (throttled) and to the service (throttled by the reporter). */
function tick(run: Run) {
  const upload = uploadOf(run.id);
  if (!upload) return;
  const { bytesDone, filesDone } = totals(run, upload);
  run.samples = addSample(run.samples, { at: Date.now(), done: bytesDone });
  const { rate } = estimate(run.samples, upload.bytesTotal);
  run.reporter.report({
    status: reportedStatus(upload),
    bytesDone,
    filesDone,
    rateKbps: rate === null ? undefined : kbpsOf(rate),
  });
  if (!run.flushTimer) run.flushTimer = setTimeout(() => flush(run), STORE_FLUSH_MS);
}

/** The live counters into the store, now (a pause shows where it stopped, not 250 ms before). */
function flush(run: Run) {
  if (run.flushTimer) clearTimeout(run.flushTimer);
  run.flushTimer = null;
  const upload = uploadOf(run.id);
  if (!upload) return;
  store().updateFiles(run.id, (f, i) => {
    const bytes = run.files[i]?.bytes ?? f.bytesDone;
    return bytes === f.bytesDone ? f : { ...f, bytesDone: bytes };
  });
  store().update(run.id, { bytesPerSecond: estimate(run.samples, upload.bytesTotal).rate });
}

/** New files show in the file list as they commit (at most once a second), never half-uploaded. */
function filesChanged(run: Run, force = false) {
  const now = Date.now();
  if (!force && now - run.filesChangedAt < 1_000) return;
  run.filesChangedAt = now;
  const upload = uploadOf(run.id);
  if (upload)
    void run.queryClient.invalidateQueries({ queryKey: filesKeys.all(upload.workspaceId) });
}

async function startFile(run: Run, index: number) {
  const upload = uploadOf(run.id);
  const fr = run.files[index];
  const entry = upload?.files[index];
  if (!upload || !fr?.file || !entry) return;
  const file = fr.file;
  run.active.add(index);
  const attempt = ++fr.attempt;
  let sha256: string | null = null;
  if (!entry.uploadUrl) {
    setFile(run.id, index, { status: "hashing", error: null });
    try {
      sha256 = await sha256OfFile(file, () => fr.attempt === attempt);
    } catch (error) {
      // The file changed or went away on disk since it was picked.
      run.active.delete(index);
      setFile(run.id, index, { status: "failed", error: describeError(error) });
      return next(run);
    }
    if (fr.attempt !== attempt) return;
  }
  setFile(run.id, index, { status: "uploading", error: null });
  const { spec } = upload;
  const tusUpload = new tus.Upload(file, {
    endpoint: spec.node.uploads,
    uploadUrl: entry.uploadUrl,
    chunkSize: spec.chunkSizeBytes,
    retryDelays: RETRY_DELAYS,
    headers: { Authorization: `Bearer ${spec.token}` },
    metadata: {
      path: entry.destination,
      mtime: String(file.lastModified),
      ...(sha256 ? { sha256 } : {}),
    },
    // This engine keeps the upload URLs itself (uploads-store), beside the transfer they belong to.
    storeFingerprintForResuming: false,
    onUploadUrlAvailable: () => setFile(run.id, index, { uploadUrl: tusUpload.url }),
    onProgress: (sent) => {
      fr.bytes = sent;
      if (uploadOf(run.id)?.status === "reconnecting")
        store().update(run.id, { status: "running" });
      tick(run);
    },
    onShouldRetry: (error) => {
      const status = statusOf(error);
      // Only a lost connection or a failing node is "reconnecting"; a busy one just waits.
      if ((status === 0 || status >= 500) && uploadOf(run.id)?.status === "running")
        store().update(run.id, { status: "reconnecting" });
      return retryable(status);
    },
    onSuccess: () => {
      run.active.delete(index);
      fr.bytes = file.size;
      fr.tus = null;
      setFile(run.id, index, { status: "done", bytesDone: file.size });
      tick(run);
      filesChanged(run);
      next(run);
    },
    onError: (error) => {
      run.active.delete(index);
      fr.tus = null;
      const status = error instanceof tus.DetailedError ? statusOf(error) : -1;
      if (retryable(status)) {
        // tus gave up waiting for the connection: the upload pauses rather than fails (failing
        // would end the transfer for good), and Resume goes on from the node's offset.
        setFile(run.id, index, { status: "queued" });
        pause(run.queryClient, run.id);
        store().update(run.id, { error: "The connection was lost: resume when it is back" });
        return;
      }
      setFile(run.id, index, { status: "failed", error: uploadError(error) });
      next(run);
    },
  });
  fr.tus = tusUpload;
  tusUpload.start();
}

/** Starts queued files while fewer than `streams` are in flight; ends the transfer when none are left. */
function next(run: Run) {
  const upload = uploadOf(run.id);
  if (!upload) return;
  if (upload.status === "running" || upload.status === "reconnecting") {
    const streams = upload.spec.streams || TRANSFER_STREAMS_DEFAULT;
    for (const [i, f] of upload.files.entries()) {
      if (run.active.size >= streams) break;
      if (f.status === "queued" && run.files[i]?.file && !run.active.has(i)) void startFile(run, i);
    }
  }
  const open = uploadOf(run.id)!.files.some(
    (f) =>
      f.status === "queued" ||
      f.status === "hashing" ||
      f.status === "uploading" ||
      f.status === "paused",
  );
  if (!open && run.active.size === 0) void finish(run);
}

async function finish(run: Run) {
  const upload = uploadOf(run.id);
  if (!upload || !(upload.status === "running" || upload.status === "reconnecting")) return;
  endRun(run);
  const { bytesDone, filesDone } = totals(run, upload);
  const failed = upload.files.filter((f) => f.status === "failed");
  const cancelled = upload.files.filter((f) => f.status === "cancelled").length;
  run.reporter.stop();
  await run.reporter.flush();
  filesChanged(run, true);
  if (failed.length > 0 || filesDone === 0) {
    const error =
      failed.length > 0
        ? `${failed.length} of ${upload.files.length} files failed: ${failed[0]!.error}`
        : null;
    const status = failed.length > 0 ? "failed" : "cancelled";
    store().update(run.id, { status, error });
    await updateTransfer(run.queryClient, run.id, {
      status,
      bytesDone,
      filesDone,
      ...(error ? { errorCode: "upload_failed", errorMessage: error.slice(0, 500) } : {}),
    }).catch(() => {});
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await updateTransfer(run.queryClient, run.id, {
        status: "completed",
        bytesDone,
        filesDone,
        // Cancelled files leave the totals, which the service holds completion to.
        ...(cancelled > 0 ? { filesTotal: filesDone, bytesTotal: bytesDone } : {}),
      });
      break;
    } catch (error) {
      // The node commits the last file as it answers the last PATCH; the service may not see it yet.
      if (!(error instanceof ApiError) || error.status >= 500 || attempt >= COMPLETE_ATTEMPTS) {
        store().update(run.id, { status: "failed", error: describeError(error) });
        return;
      }
      await new Promise((r) => setTimeout(r, COMPLETE_RETRY_MS));
    }
  }
  store().update(run.id, {
    status: "completed",
    error: cancelled > 0 ? `${cancelled} file${cancelled === 1 ? "" : "s"} cancelled` : null,
  });
}

// A page that goes away (closed, reloaded) takes its uploads' files with it: the service hears
// they are paused, rather than keeping them "running" for everyone else to watch. They resume
// when the files are picked again (a request sent as the page unloads needs `keepalive`).
window.addEventListener("pagehide", () => {
  const apiKey = useSessionStore.getState().session?.apiKey;
  if (!apiKey) return;
  for (const run of runs.values()) {
    const upload = uploadOf(run.id);
    if (!upload || !(upload.status === "running" || upload.status === "reconnecting")) continue;
    void fetch(upload.spec.progress.url, {
      method: "PATCH",
      keepalive: true,
      headers: { Authorization: `Bearer ${apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ status: "paused", ...totals(run, upload) }),
    }).catch(() => {});
  }
});

/**
 * Uploads what was picked or dropped into `folder`: one transfer (one path item per top-level
 * name), then each file by tus, `streams` at a time.
 */
export async function startUpload(o: {
  queryClient: QueryClient;
  workspaceId: string;
  folder: string;
  picked: PickedFile[];
}) {
  const plan = planUpload(o.folder, o.picked);
  const created = await createTransfer(o.queryClient, {
    direction: "send",
    client: "web",
    paths: plan.paths,
    fileCount: plan.files.length,
    totalBytes: plan.totalBytes,
    streams: TRANSFER_STREAMS_DEFAULT,
  });
  const upload: Upload = {
    transferId: created.transferId,
    workspaceId: o.workspaceId,
    folder: o.folder,
    spec: created.transferSpec,
    status: "running",
    files: plan.files.map((f) => ({
      ...f,
      status: "queued",
      bytesDone: 0,
      uploadUrl: null,
      error: null,
    })),
    bytesTotal: plan.totalBytes,
    bytesPerSecond: null,
    createdAt: Date.now(),
    error: null,
  };
  store().put(upload);
  const run = newRun(upload.transferId, o.queryClient, upload);
  for (const [i, p] of o.picked.entries()) run.files[i]!.file = p.file;
  tick(run);
  next(run);
  return upload;
}

/**
 * Gives an upload that lost its files (a reload) the files picked again. Each matched file
 * resumes from the node's offset (tus asks with HEAD), not from zero. Returns how many of the
 * unfinished files are still missing.
 */
export function reattachFiles(queryClient: QueryClient, id: string, picked: PickedFile[]) {
  const run = runFor(id, queryClient);
  const upload = uploadOf(id);
  if (!run || !upload) return { matched: 0, missing: 0 };
  const found = matchPicked(upload.files, picked);
  for (const [i, file] of found) run.files[i]!.file = file;
  const missing = upload.files.filter(
    (f, i) => f.status !== "done" && f.status !== "cancelled" && !run.files[i]?.file,
  ).length;
  if (found.size > 0 && upload.status === "waiting") resume(queryClient, id);
  return { matched: found.size, missing };
}

export function pause(queryClient: QueryClient, id: string) {
  const run = runFor(id, queryClient);
  const upload = uploadOf(id);
  if (!run || !upload || !(upload.status === "running" || upload.status === "reconnecting")) return;
  store().update(id, { status: "paused" });
  for (const i of run.active) {
    const fr = run.files[i]!;
    fr.attempt++;
    void fr.tus?.abort();
    fr.tus = null;
    // Picked up again by resume, which starts queued files.
    setFile(id, i, { status: "queued" });
  }
  run.active.clear();
  tick(run);
  flush(run);
}

export function resume(queryClient: QueryClient, id: string) {
  const run = runFor(id, queryClient);
  const upload = uploadOf(id);
  if (!run || !upload || !(upload.status === "paused" || upload.status === "waiting")) return;
  // A file that failed (its connection gave up) is tried again from its offset.
  store().updateFiles(id, (f) => (f.status === "failed" ? { ...f, status: "queued" } : f));
  store().update(id, { status: "running", error: null });
  tick(run);
  next(run);
}

export function pauseFile(queryClient: QueryClient, id: string, index: number) {
  const run = runFor(id, queryClient);
  const fr = run?.files[index];
  if (!run || !fr) return;
  fr.attempt++;
  void fr.tus?.abort();
  fr.tus = null;
  run.active.delete(index);
  setFile(id, index, { status: "paused" });
  next(run);
}

export function resumeFile(queryClient: QueryClient, id: string, index: number) {
  const run = runFor(id, queryClient);
  if (!run) return;
  setFile(id, index, { status: "queued", error: null });
  next(run);
}

/** Stops a file for good: its partial upload is deleted at the node (tus termination). */
export function cancelFile(queryClient: QueryClient, id: string, index: number) {
  const run = runFor(id, queryClient);
  const upload = uploadOf(id);
  const fr = run?.files[index];
  const entry = upload?.files[index];
  if (!run || !upload || !fr || !entry) return;
  fr.attempt++;
  void terminate(fr, entry, upload);
  run.active.delete(index);
  setFile(id, index, { status: "cancelled" });
  next(run);
}

function terminate(fr: FileRun, entry: UploadFile, upload: Upload) {
  const running = fr.tus;
  fr.tus = null;
  if (running) return running.abort(true).catch(() => {});
  if (!entry.uploadUrl || entry.status === "done") return Promise.resolve();
  return tus.Upload.terminate(entry.uploadUrl, {
    headers: { Authorization: `Bearer ${upload.spec.token}` },
  }).catch(() => {});
}

/** Cancels the whole transfer: every partial upload is deleted and the service told. */
export async function cancel(queryClient: QueryClient, id: string) {
  const run = runFor(id, queryClient);
  const upload = uploadOf(id);
  if (!run || !upload) return;
  endRun(run);
  run.reporter.stop();
  for (const fr of run.files) fr.attempt++;
  await Promise.all(run.files.map((fr, i) => terminate(fr, upload.files[i]!, upload)));
  store().update(id, { status: "cancelled" });
  const { bytesDone, filesDone } = totals(run, upload);
  await updateTransfer(queryClient, id, { status: "cancelled", bytesDone, filesDone }).catch(
    () => {},
  );
  void queryClient.invalidateQueries({ queryKey: transfersKeys.all(upload.workspaceId) });
}
