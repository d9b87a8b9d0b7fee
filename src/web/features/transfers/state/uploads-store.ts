import { create } from "zustand";
import type { TransferSpec } from "@/contract/transfers";
import { useSessionStore } from "@/web/stores/session-store";
import { UPLOADS_STORAGE_KEY } from "@/web/stores/uploads-seen-store";

/**
 * What identifies a local file again after a reload: a browser cannot reopen a file by itself,
 * so the person picks the files again and each is matched to its upload by this.
 */
export interface FileFingerprint {
  /** Path under what was picked or dropped (`Shots/a/plate.exr`), or the name alone. */
  relativePath: string;
  size: number;
  lastModified: number;
}

export type UploadFileStatus =
  | "queued"
  | "hashing"
  | "uploading"
  | "paused"
  | "done"
  | "failed"
  | "cancelled";

export interface UploadFile {
  fingerprint: FileFingerprint;
  /** The workspace path the file becomes. */
  destination: string;
  status: UploadFileStatus;
  bytesDone: number;
  /** The node's tus upload: where a resume continues from (HEAD gives its offset). */
  uploadUrl: string | null;
  error: string | null;
}

/**
 * `waiting`: loaded after a reload, the files not picked again yet. `reconnecting`: the node
 * could not be reached and tus is retrying.
 */
export type UploadStatus =
  | "running"
  | "reconnecting"
  | "paused"
  | "waiting"
  | "completed"
  | "failed"
  | "cancelled";

export interface Upload {
  transferId: string;
  workspaceId: string;
  /** The workspace folder the files went into. */
  folder: string;
  spec: TransferSpec;
  status: UploadStatus;
  files: UploadFile[];
  bytesTotal: number;
  /** The recent rate while it runs (this browser's own reading). */
  bytesPerSecond: number | null;
  createdAt: number;
  error: string | null;
}

export const isUnfinished = (status: UploadStatus) =>
  status !== "completed" && status !== "failed" && status !== "cancelled";

interface UploadsState {
  uploads: Record<string, Upload>;
  put(upload: Upload): void;
  update(transferId: string, change: Partial<Omit<Upload, "transferId" | "files">>): void;
  updateFiles(transferId: string, change: (file: UploadFile, index: number) => UploadFile): void;
  remove(transferId: string): void;
}

/**
 * Unfinished uploads from an earlier page. A reloaded page holds no File: each waits for its
 * files to be picked again.
 */
function load(): Record<string, Upload> {
  try {
    const raw = localStorage.getItem(UPLOADS_STORAGE_KEY);
    const stored = raw ? (JSON.parse(raw) as { uploads?: Record<string, Upload> }).uploads : null;
    return Object.fromEntries(
      Object.entries(stored ?? {}).map(([id, u]) => [
        id,
        {
          ...u,
          status: "waiting" as const,
          bytesPerSecond: null,
          files: u.files.map((f) =>
            f.status === "hashing" || f.status === "uploading"
              ? { ...f, status: "queued" as const }
              : f,
          ),
        },
      ]),
    );
  } catch {
    return {};
  }
}

/**
 * This browser's uploads: live for the tray and the monitor, and the unfinished ones kept in
 * localStorage (spec, fingerprints and tus URLs; never a byte) so they can resume after a
 * reload. Kept by hand rather than zustand's persist middleware, which the vendor chunk would
 * carry into every first load.
 */
export const useUploadsStore = create<UploadsState>()((set) => ({
  uploads: load(),
  put: (upload) => set((s) => ({ uploads: { ...s.uploads, [upload.transferId]: upload } })),
  update: (id, change) =>
    set((s) => {
      const upload = s.uploads[id];
      return upload ? { uploads: { ...s.uploads, [id]: { ...upload, ...change } } } : s;
    }),
  updateFiles: (id, change) =>
    set((s) => {
      const upload = s.uploads[id];
      return upload
        ? { uploads: { ...s.uploads, [id]: { ...upload, files: upload.files.map(change) } } }
        : s;
    }),
  remove: (id) =>
    set((s) => {
      const { [id]: _, ...rest } = s.uploads;
      return { uploads: rest };
    }),
}));

useUploadsStore.subscribe((s, before) => {
  if (s.uploads === before.uploads) return;
  const unfinished = Object.entries(s.uploads).filter(([, u]) => isUnfinished(u.status));
  if (unfinished.length === 0) localStorage.removeItem(UPLOADS_STORAGE_KEY);
  else
    localStorage.setItem(
      UPLOADS_STORAGE_KEY,
      JSON.stringify({ uploads: Object.fromEntries(unfinished) }),
    );
});

/** Uploads of this browser still going (or waiting to), for the header's badge. */
export const useActiveUploadCount = (workspaceId: string) =>
  useUploadsStore(
    (s) =>
      Object.values(s.uploads).filter(
        (u) => u.workspaceId === workspaceId && isUnfinished(u.status),
      ).length,
  );

// Signing out forgets this browser's uploads (their specs hold the transfers' tokens).
useSessionStore.subscribe((s, before) => {
  if (before.session && !s.session) useUploadsStore.setState({ uploads: {} });
});
