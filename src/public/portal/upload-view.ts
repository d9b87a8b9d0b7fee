import type { Estimate } from "@/browser/rate";
import type { PortalConfirmation } from "@/contract/portal-public";

/* What the page is shown of an upload under way (the run in uploader.ts sends it on change). */

export type FileStatus = "missing" | "queued" | "hashing" | "uploading" | "done" | "failed";

export interface FileView {
  path: string;
  size: number;
  status: FileStatus;
  sent: number;
  hashed: number;
  error: string | null;
}

export interface UploadView {
  files: FileView[];
  sent: number;
  total: number;
  estimate: Estimate;
  paused: boolean;
  reconnecting: boolean;
  phase: "sending" | "completing" | "completed" | "cancelled";
  /** What stopped the whole upload: a lost connection, a refused completion. */
  error: string | null;
  confirmation: PortalConfirmation | null;
  /** This browser's hashes by path, for the confirmation's "matches" column. */
  localHashes: Record<string, string>;
}
