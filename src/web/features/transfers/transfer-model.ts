import { baseName, joinPath, parentOf } from "@/contract/rules";
import type { Transfer, TransferPath, TransferState } from "@/contract/transfers";
import {
  type FileFingerprint,
  isUnfinished,
  type Upload,
  type UploadFile,
} from "@/web/features/transfers/state/uploads-store";

/** The Web Lock a tab holds while it runs an upload (other tabs leave that upload alone). */
export const uploadLockName = (transferId: string) => `consign-upload:${transferId}`;

/** A local file as it was picked or dropped, with its path under what was picked. */
export interface PickedFile {
  file: File;
  /** `Shots/a/plate.exr` for a file in a dropped folder; the name for a loose file. */
  relativePath: string;
}

export const fingerprintOf = ({ file, relativePath }: PickedFile): FileFingerprint => ({
  relativePath,
  size: file.size,
  lastModified: file.lastModified,
});

/** The same path, size and modification time: a file picked again after a reload. */
export const sameFile = (a: FileFingerprint, b: FileFingerprint) =>
  a.relativePath === b.relativePath && a.size === b.size && a.lastModified === b.lastModified;

/**
 * Matches files picked again to an upload's unfinished files. A folder picked again may sit at
 * another place than the dropped one (its relative paths then differ above the upload's), so a
 * file also matches by its path's tail when exactly one picked file has that tail.
 */
export function matchPicked(
  files: readonly Pick<UploadFile, "fingerprint" | "status">[],
  picked: readonly PickedFile[],
): Map<number, File> {
  const found = new Map<number, File>();
  for (const [i, f] of files.entries()) {
    if (f.status === "done" || f.status === "cancelled") continue;
    const exact = picked.find((p) => sameFile(fingerprintOf(p), f.fingerprint));
    if (exact) {
      found.set(i, exact.file);
      continue;
    }
    const tail = (p: PickedFile) =>
      p.file.size === f.fingerprint.size &&
      p.file.lastModified === f.fingerprint.lastModified &&
      (p.relativePath.endsWith(`/${f.fingerprint.relativePath}`) ||
        f.fingerprint.relativePath.endsWith(`/${p.relativePath}`));
    const near = picked.filter(tail);
    if (near.length === 1) found.set(i, near[0]!.file);
  }
  return found;
}

/**
 * The create body's paths for files dropped into `folder`: one item per top-level name (a
 * dropped folder is one item, whatever it holds), and each file's workspace path.
 */
export function planUpload(folder: string, picked: readonly PickedFile[]) {
  const tops = new Set(picked.map((p) => p.relativePath.split("/")[0]!));
  const paths: TransferPath[] = [...tops].map((name) => ({
    source: name,
    destination: joinPath(folder, name),
  }));
  const files = picked.map((p) => ({
    fingerprint: fingerprintOf(p),
    destination: joinPath(folder, p.relativePath),
  }));
  return { paths, files, totalBytes: picked.reduce((sum, p) => sum + p.file.size, 0) };
}

export const activeTransferStates: readonly TransferState[] = ["queued", "running", "paused"];
export const isActiveTransfer = (t: Pick<Transfer, "status">) =>
  activeTransferStates.includes(t.status);

/** Whole percent of the bytes, or null while the total is unknown; completed is 100. */
export function transferPercent(t: Pick<Transfer, "status" | "bytesDone" | "bytesTotal">) {
  if (t.status === "completed") return 100;
  if (t.bytesTotal === null) return null;
  if (t.bytesTotal === 0) return 0;
  return Math.min(100, Math.floor((t.bytesDone / t.bytesTotal) * 100));
}

/** kbps are kilobits a second (1,000 bits), as the service's `avgRateKbps`. */
export const kbpsOf = (bytesPerSecond: number) => Math.round((bytesPerSecond * 8) / 10) / 100;
export const bytesPerSecondOf = (kbps: number) => (kbps * 1000) / 8;

/**
 * The rate to show: the engine's last report while it runs, the service's average once it
 * ended; and the seconds left at that rate, when there is a total and a rate.
 */
export function transferRate(
  t: Pick<Transfer, "status" | "bytesDone" | "bytesTotal" | "avgRateKbps" | "rateKbps">,
): { bytesPerSecond: number | null; etaSeconds: number | null } {
  const kbps = t.status === "running" ? (t.rateKbps ?? null) : t.avgRateKbps;
  if (kbps === null || kbps === undefined) return { bytesPerSecond: null, etaSeconds: null };
  const bytesPerSecond = bytesPerSecondOf(kbps);
  if (t.status !== "running" || t.bytesTotal === null || bytesPerSecond <= 0)
    return { bytesPerSecond, etaSeconds: null };
  return {
    bytesPerSecond,
    etaSeconds: Math.max(0, Math.ceil((t.bytesTotal - t.bytesDone) / bytesPerSecond)),
  };
}

/** "Upload of “Shots”", "Download of “cut.mov” and 2 more": what a transfer moves, in a line. */
export function describeTransfer(t: Pick<Transfer, "direction" | "paths" | "pathsCount">): string {
  const verb = t.direction === "send" ? "Upload" : "Download";
  const first = t.paths?.[0];
  if (!first) return verb;
  const path = t.direction === "send" ? first.destination : first.source;
  const more = (t.pathsCount ?? t.paths?.length ?? 1) - 1;
  return `${verb} of “${baseName(path) || "the workspace"}”${more > 0 ? ` and ${more} more` : ""}`;
}

/** Where a send put its files: the folder of its first path (what "Open folder" opens). */
export function sentFolder(t: Pick<Transfer, "direction" | "paths">): string | null {
  const first = t.paths?.[0];
  return t.direction === "send" && first ? parentOf(first.destination) : null;
}

/** "Upload of “Shots”": one of this browser's uploads, named as the monitor names it. */
export const describeUpload = (u: Upload) =>
  describeTransfer({ direction: "send", paths: u.spec.paths, pathsCount: u.spec.paths.length });

/** This browser's own counters of an upload, and the time left at its recent rate. */
export function uploadProgress(u: Upload) {
  const bytesDone = u.files.reduce((sum, f) => sum + f.bytesDone, 0);
  const rate = u.status === "running" ? u.bytesPerSecond : null;
  return {
    bytesDone,
    filesDone: u.files.filter((f) => f.status === "done").length,
    percent:
      u.status === "completed"
        ? 100
        : u.bytesTotal === 0
          ? 0
          : Math.min(100, Math.floor((bytesDone / u.bytesTotal) * 100)),
    bytesPerSecond: rate,
    etaSeconds: rate ? Math.max(0, Math.ceil((u.bytesTotal - bytesDone) / rate)) : null,
  };
}

/**
 * A transfer as the monitor shows it: the service's record, with this browser's own live
 * counters while it is one of this browser's unfinished uploads (fresher than the last PATCH).
 */
export function viewOf(record: Transfer, upload: Upload | undefined) {
  if (!upload || !isUnfinished(upload.status))
    return {
      ...transferRate(record),
      percent: transferPercent(record),
      bytesDone: record.bytesDone,
      bytesTotal: record.bytesTotal,
      filesDone: record.filesDone,
      filesTotal: record.filesTotal,
      upload: upload ?? null,
    };
  const own = uploadProgress(upload);
  return {
    ...own,
    bytesDone: Math.max(record.bytesDone, own.bytesDone),
    bytesTotal: upload.bytesTotal,
    filesTotal: upload.files.length,
    upload,
  };
}
export type TransferView = ReturnType<typeof viewOf>;
