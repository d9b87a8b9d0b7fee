import type { AppDeps } from "@/server/deps";
import type { BlobStore } from "@/server/modules/files/blob-store";
import { endUpload, expiredUploads, uploadById } from "./node.repository";

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
  for (const id of blobs.stagingIds()) {
    // The row is written before its staging file, so a file without an open row is abandoned;
    // so is one whose upload is open past its expiry (the node refuses it with 410).
    const row = uploadById(db, id);
    if (row?.status === "uploading" && row.expires_at >= now) continue;
    blobs.discard({ sha256: "", size: 0, tempPath: blobs.stagingPath(id) });
    removed += 1;
  }
  blobs.sweepTemp(TEMP_GRACE_MS, Date.now());
  if (unrecorded) throw unrecorded;
  return { expired, removed };
}

export function registerNodeWorkers(deps: AppDeps) {
  deps.jobs.every("node.cleanup", CLEANUP_EVERY_MS, () => {
    // Staged bytes live in the files module's blob store, beside the committed ones.
    const result = cleanUpUploads(deps, deps.files.blobs);
    if (result.expired || result.removed) deps.log.info("abandoned uploads cleaned up", result);
  });
}
