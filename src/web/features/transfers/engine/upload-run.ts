// The state of each upload this tab runs: its files' tus uploads, its counters (to the store
// and to the service), and the Web Lock that tells other tabs it runs here.
import type { QueryClient } from "@tanstack/react-query";
import type * as tus from "tus-js-client";
import { PROGRESS_MIN_INTERVAL_MS } from "@/contract/rules";
import { addSample, estimate, type Sample } from "@/web/features/jobs";
import {
  type Upload,
  type UploadFile,
  useUploadsStore,
} from "@/web/features/transfers/state/uploads-store";
import { filesKeys } from "@/web/lib/query-keys/files";
import { useSessionStore } from "@/web/stores/session-store";
import { updateTransfer } from "../api/update-transfer";
import { kbpsOf, uploadLockName } from "../transfer-model";
import { createProgressReporter } from "./progress-reporter";

/** Live counters reach the store (and so the tray) this often, not on every XHR progress event. */
const STORE_FLUSH_MS = 250;

export interface FileRun {
  file: File | null;
  tus: tus.Upload | null;
  bytes: number;
  /**
   * Bumped by every start and stop: a file still being hashed when it was paused (and perhaps
   * started again) sees that it is no longer the current attempt.
   */
  attempt: number;
}

export interface Run {
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

export function endRun(run: Run) {
  runs.delete(run.id);
  run.unlock();
}
export const store = () => useUploadsStore.getState();
export const uploadOf = (id: string) => store().uploads[id];

export const setFile = (id: string, index: number, change: Partial<UploadFile>) =>
  store().updateFiles(id, (f, i) => (i === index ? { ...f, ...change } : f));

export function newRun(id: string, queryClient: QueryClient, upload: Upload): Run {
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

export function runFor(id: string, queryClient: QueryClient) {
  const upload = uploadOf(id);
  if (!upload) return null;
  return runs.get(id) ?? newRun(id, queryClient, upload);
}

export const totals = (run: Run, upload: Upload) => ({
  bytesDone: run.files.reduce((sum, f) => sum + f.bytes, 0),
  filesDone: upload.files.filter((f) => f.status === "done").length,
});

/** The service's status for what the engine is doing. */
const reportedStatus = (upload: Upload) =>
  upload.status === "paused" || upload.status === "waiting" ? "paused" : "running";

/** Counters to the store (throttled) and to the service (throttled by the reporter). */
export function tick(run: Run) {
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
export function flush(run: Run) {
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
export function filesChanged(run: Run, force = false) {
  const now = Date.now();
  if (!force && now - run.filesChangedAt < 1_000) return;
  run.filesChangedAt = now;
  const upload = uploadOf(run.id);
  if (upload)
    void run.queryClient.invalidateQueries({ queryKey: filesKeys.all(upload.workspaceId) });
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
