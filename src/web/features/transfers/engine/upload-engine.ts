// The console's upload engine (client `web`). Loaded on the first upload, never with a page:
// tus-js-client and hash-wasm stay out of every first load (npm run bench:bundle).
import type { QueryClient } from "@tanstack/react-query";
import * as tus from "tus-js-client";
import {
  RETRY_DELAYS,
  retryable,
  sha256OfFile,
  statusOf,
  uploadError,
} from "@/browser/upload-file";
import { TRANSFER_STREAMS_DEFAULT } from "@/contract/rules";
import type { Upload, UploadFile } from "@/web/features/transfers/state/uploads-store";
import { describeError } from "@/web/lib/api-client";
import { createTransfer } from "../api/create-transfer";
import { transfersKeys } from "../api/transfers-keys";
import { updateTransfer } from "../api/update-transfer";
import { matchPicked, type PickedFile, planUpload } from "../transfer-model";
import { finish } from "./upload-finish";
import {
  endRun,
  type FileRun,
  filesChanged,
  flush,
  newRun,
  type Run,
  runFor,
  setFile,
  store,
  tick,
  totals,
  uploadOf,
} from "./upload-run";

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
