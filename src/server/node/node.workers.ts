import type { AppDeps } from "@/server/deps";
import type { BlobStore } from "@/server/modules/files/blob-store";
import { bucketPartsFor, type MultipartState } from "./multipart";
import {
  clearMultipart,
  endedMultiparts,
  endUpload,
  expiredUploads,
  uploadById,
} from "./node.repository";

const CLEANUP_EVERY_MS = 15 * 60_000;
/** Temp files of a write that died are this old before the sweep takes them. */
const TEMP_GRACE_MS = 86_400_000;

/**
 * Abandoned uploads (docs/data-node.md, Cleanup): an upload still open past its expiry is
 * marked failed (`expired`), and every staging file whose upload is not open any more (expired,
 * terminated, failed, a cancelled transfer's) is deleted, as are stale temp files. Staging files
 * are not otherwise reachable, so this is the only place they go; it runs in the service (a
 * standalone node shares its data dir and runs no jobs).
 */
export function cleanUpUploads(
  deps: Pick<AppDeps, "db" | "clock">,
  blobs: BlobStore,
): { expired: number; removed: number } {
  const { db, clock } = deps;
  const now = clock.now();
  let expired = 0;
  let unrecorded: unknown = null;
  try {
    for (;;) {
      const batch = expiredUploads(db, now, 500);
      for (const { id } of batch)
        if (endUpload(db, id, "failed", now, { error: "expired" })) expired += 1;
      if (batch.length < 500) break;
    }
  } catch (err) {
    // A database that takes no writes (a full disk): the staged bytes below still go, which is
    // what frees room; the rows are marked on a later run.
    unrecorded = err;
  }
  let removed = 0;
  for (const name of blobs.stagingIds()) {
    // The row is written before its staging file, so a file without an open row is abandoned;
    // so is one whose upload is open past its expiry (the node refuses it with 410). An upload on
    // S3 names its tail files `<id>.<suffix>`.
    const row = uploadById(db, name.split(".")[0]!);
    if (row?.status === "uploading" && row.expires_at >= now) continue;
    blobs.discard({ sha256: "", size: 0, tempPath: blobs.stagingPath(name) });
    removed += 1;
  }
  blobs.sweepTemp(TEMP_GRACE_MS, Date.now());
  if (unrecorded) throw unrecorded;
  return { expired, removed };
}

/**
 * The bucket side of ended uploads on S3 (docs/scale-out.md, Uploads on S3): an expired,
 * cancelled or failed upload's multipart upload is aborted, so no parts are left behind, and a
 * committed one's assembled object (copied to its content key) is deleted. Returns how many.
 */
export async function releaseEndedParts(deps: Pick<AppDeps, "db" | "config">) {
  const bucket = bucketPartsFor(deps.config);
  if (!bucket) return 0;
  let released = 0;
  for (;;) {
    const batch = endedMultiparts(deps.db, 100);
    for (const { id, multipart } of batch) {
      await bucket.release(JSON.parse(multipart) as MultipartState);
      clearMultipart(deps.db, id);
      released += 1;
    }
    if (batch.length < 100) return released;
  }
}

export function registerNodeWorkers(deps: AppDeps) {
  deps.jobs.every("node.cleanup", CLEANUP_EVERY_MS, async () => {
    // Staged bytes live in the files module's blob store, beside the committed ones.
    const result = cleanUpUploads(deps, deps.files.blobs);
    const released = await releaseEndedParts(deps);
    if (result.expired || result.removed || released)
      deps.log.info("abandoned uploads cleaned up", { ...result, released });
  });
}
