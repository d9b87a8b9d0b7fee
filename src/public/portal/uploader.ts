// The portal page's sending engine. Imported once a file is picked, not with the page: the
// form is usable before tus-js-client and hash-wasm have arrived.
import * as tus from "tus-js-client";
import { addSample, estimate, type Sample } from "@/browser/rate";
import {
  RETRY_DELAYS,
  retryable,
  sha256OfFile,
  statusOf,
  uploadError,
} from "@/browser/upload-file";
import type { PortalConfirmation } from "@/contract/portal-public";
import { TRANSFER_STREAMS_DEFAULT } from "@/contract/rules";
import { completeUpload } from "./complete-upload";
import type { PortalApi } from "./portal-api";
import { matchesDeclared, type Picked } from "./portal-model";
import {
  clearUpload,
  fingerprintPrefix,
  type StoredUpload,
  saveUpload,
  uploadLockName,
} from "./session";
import type { FileView, UploadView } from "./upload-view";

/** Progress reaches the page this often, not on every XHR progress event. */
const VIEW_FLUSH_MS = 250;
/** How often the upload's record in localStorage is brought up to date. */
const PERSIST_MS = 1_000;

interface FileRun extends FileView {
  file: File | null;
  tus: tus.Upload | null;
  /** Bumped by every start and stop: work for an earlier attempt (a hash) sees it is stale. */
  attempt: number;
}

export class PortalUploadRun {
  private files: FileRun[];
  private active = new Set<number>();
  private samples: Sample[] = [];
  private paused = false;
  private reconnecting = false;
  private phase: UploadView["phase"] = "sending";
  private error: string | null = null;
  private confirmation: PortalConfirmation | null = null;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private persistTimer: ReturnType<typeof setTimeout> | null = null;
  private unlock = () => {};

  constructor(
    private readonly api: PortalApi,
    private readonly stored: StoredUpload,
    files: readonly (File | null)[],
    private readonly onChange: (view: UploadView) => void,
  ) {
    this.files = stored.files.map((f, i) => ({
      path: f.path,
      size: f.size,
      status: f.done ? "done" : files[i] ? "queued" : "missing",
      sent: f.done ? f.size : 0,
      hashed: 0,
      error: null,
      file: files[i] ?? null,
      tus: null,
      attempt: 0,
    }));
    window.addEventListener("pagehide", this.persistNow);
    void navigator.locks
      ?.request(
        uploadLockName(stored.uploadId),
        () =>
          new Promise<void>((resolve) => {
            this.unlock = resolve;
          }),
      )
      .catch(() => {});
  }

  get uploadId() {
    return this.stored.uploadId;
  }

  view(): UploadView {
    const total = this.files.reduce((n, f) => n + f.size, 0);
    const localHashes: Record<string, string> = {};
    for (const f of this.stored.files) if (f.sha256) localHashes[f.path] = f.sha256;
    return {
      files: this.files.map(({ path, size, status, sent, hashed, error }) => ({
        path,
        size,
        status,
        sent,
        hashed,
        error,
      })),
      sent: this.files.reduce((n, f) => n + f.sent, 0),
      total,
      estimate: estimate(this.samples, total),
      paused: this.paused,
      reconnecting: this.reconnecting,
      phase: this.phase,
      error: this.error,
      confirmation: this.confirmation,
      localHashes,
    };
  }

  /** Now: a change of status shows at once. */
  private emit() {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.onChange(this.view());
  }

  /** Soon: progress is gathered into one render per VIEW_FLUSH_MS. */
  private tick() {
    this.samples = addSample(this.samples, {
      at: Date.now(),
      done: this.files.reduce((n, f) => n + f.sent, 0),
    });
    this.flushTimer ??= setTimeout(() => this.emit(), VIEW_FLUSH_MS);
  }

  /**
   * At most once a second: the record lists every file, and rewriting it per file made 10,000
   * small files quadratic. A page going away writes at once (pagehide).
   */
  private persist() {
    this.persistTimer ??= setTimeout(this.persistNow, PERSIST_MS);
  }

  private persistNow = () => {
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = null;
    if (this.phase === "sending" || this.phase === "completing")
      saveUpload(this.api.slug, this.stored);
  };

  /** The upload ended: nothing of it is kept, not even by a write still pending. */
  private forget() {
    if (this.persistTimer) clearTimeout(this.persistTimer);
    this.persistTimer = null;
    window.removeEventListener("pagehide", this.persistNow);
    clearUpload(this.api.slug, this.uploadId);
    this.unlock();
  }

  start() {
    this.next();
    this.emit();
  }

  /** Files picked again after a reload; returns how many matched a file still missing. */
  attach(picked: readonly Picked[]) {
    let matched = 0;
    const used = new Set<Picked>();
    for (const [i, f] of this.files.entries()) {
      if (f.status !== "missing") continue;
      const declared = this.stored.files[i]!;
      const p = picked.find(
        (x) =>
          !used.has(x) &&
          matchesDeclared(declared, {
            path: x.path,
            size: x.file.size,
            lastModified: x.file.lastModified,
          }),
      );
      if (!p) continue;
      used.add(p);
      f.file = p.file;
      f.status = "queued";
      matched++;
    }
    this.next();
    this.emit();
    return matched;
  }

  pause() {
    if (this.phase !== "sending" || this.paused) return;
    this.paused = true;
    this.reconnecting = false;
    for (const i of this.active) {
      const f = this.files[i]!;
      f.attempt++;
      void f.tus?.abort();
      f.tus = null;
      f.status = "queued";
    }
    this.active.clear();
    this.samples = [];
    this.emit();
  }

  resume() {
    if (this.phase !== "sending") return;
    this.paused = false;
    this.error = null;
    this.next();
    this.emit();
  }

  retry(index: number) {
    const f = this.files[index];
    if (f?.status !== "failed") return;
    // A file that could not be read is picked again, like after a reload.
    f.status = f.file ? "queued" : "missing";
    f.error = null;
    this.next();
    this.emit();
  }

  /** Stops for good: partial uploads are deleted at the node and the service told. */
  async cancel() {
    this.phase = "cancelled";
    const running = [...this.active].map((i) => this.files[i]!);
    this.active.clear();
    for (const f of this.files) f.attempt++;
    await Promise.all(running.map((f) => f.tus?.abort(true).catch(() => {})));
    this.emit();
    try {
      await this.api.cancel(this.uploadId, this.stored.spec.token);
    } finally {
      this.forget();
    }
  }

  /** Starts queued files while fewer than `streams` are in flight; completes when all are in. */
  private next() {
    if (this.phase !== "sending" || this.paused) return;
    const streams = this.stored.spec.streams || TRANSFER_STREAMS_DEFAULT;
    for (const [i, f] of this.files.entries()) {
      if (this.active.size >= streams) break;
      if (f.status === "queued" && f.file && !this.active.has(i)) void this.startFile(i);
    }
    if (this.active.size === 0 && this.files.every((f) => f.status === "done"))
      void this.complete();
  }

  private async startFile(index: number) {
    const f = this.files[index]!;
    const declared = this.stored.files[index]!;
    const file = f.file!;
    const spec = this.stored.spec;
    this.active.add(index);
    const attempt = ++f.attempt;
    f.error = null;
    const upload = new tus.Upload(file, {
      endpoint: spec.node.uploads,
      chunkSize: spec.chunkSizeBytes,
      retryDelays: RETRY_DELAYS,
      headers: { Authorization: `Bearer ${spec.token}` },
      metadata: {
        path: `${spec.destinationRoot}/${f.path}`,
        mtime: String(file.lastModified),
      },
      // One fingerprint per file of this upload: a reload finds the node's upload URL in
      // localStorage, and another upload of the same file never resumes this one's bytes.
      fingerprint: () =>
        Promise.resolve(
          `${fingerprintPrefix(this.uploadId)}${f.path}:${f.size}:${file.lastModified}`,
        ),
      storeFingerprintForResuming: true,
      removeFingerprintOnSuccess: true,
      onProgress: (sent) => {
        if (f.attempt !== attempt) return;
        f.sent = sent;
        if (this.reconnecting) {
          this.reconnecting = false;
          this.emit();
        }
        this.tick();
      },
      onShouldRetry: (error) => {
        const status = statusOf(error);
        if (status === 0 || status >= 500) {
          this.reconnecting = true;
          this.emit();
        }
        return retryable(status);
      },
      onSuccess: () => {
        if (f.attempt !== attempt) return;
        this.active.delete(index);
        f.tus = null;
        f.sent = f.size;
        f.status = "done";
        declared.done = true;
        this.persist();
        this.reconnecting = false;
        // With the next tick, not at once: 10,000 small files would each render every row.
        this.tick();
        this.next();
      },
      onError: (error) => {
        if (f.attempt !== attempt) return;
        this.active.delete(index);
        f.tus = null;
        const status = error instanceof tus.DetailedError ? statusOf(error) : -1;
        if (retryable(status)) {
          // tus gave up waiting for the connection: everything pauses, and Resume goes on
          // from the node's offset once it is back.
          f.status = "queued";
          this.pause();
          this.error = "The connection was lost. Resume when it is back.";
          this.emit();
          return;
        }
        f.status = "failed";
        f.error = uploadError(error);
        this.emit();
        this.next();
      },
    });
    f.tus = upload;
    try {
      const previous = (await upload.findPreviousUploads()).sort((a, b) =>
        b.creationTime.localeCompare(a.creationTime),
      )[0];
      if (f.attempt !== attempt) return;
      if (declared.sha256) upload.options.metadata!.sha256 = declared.sha256;
      if (previous) {
        upload.resumeFromPreviousUpload(previous);
      } else if (!declared.sha256) {
        f.status = "hashing";
        this.tick();
        const sha256 = await sha256OfFile(
          file,
          () => f.attempt === attempt,
          (hashed) => {
            f.hashed = hashed;
            this.tick();
          },
        );
        if (f.attempt !== attempt || sha256 === null) return;
        declared.sha256 = sha256;
        this.persist();
        upload.options.metadata!.sha256 = sha256;
      }
    } catch (error) {
      // The file changed or went away on disk since it was picked.
      if (f.attempt !== attempt) return;
      this.active.delete(index);
      f.tus = null;
      f.status = "failed";
      f.error = `This file could not be read (${(error as Error).message}). Pick it again.`;
      f.file = null;
      this.emit();
      this.next();
      return;
    }
    f.status = "uploading";
    this.tick();
    upload.start();
  }

  /** Asks the service to close the upload; the node may still be committing the last file. */
  async complete() {
    if (this.phase === "completed" || this.phase === "cancelled") return;
    this.phase = "completing";
    this.error = null;
    this.emit();
    const outcome = await completeUpload(this.api, this.uploadId, this.stored.spec.token);
    if ("error" in outcome) {
      this.phase = "sending";
      this.error = outcome.error;
    } else {
      this.confirmation = outcome.confirmation;
      this.phase = "completed";
      this.forget();
    }
    this.emit();
  }
}
