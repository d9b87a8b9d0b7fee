import { baseName, joinPath } from "@/contract/rules";
import type { AppDeps } from "@/server/deps";
import { ApiError } from "@/server/lib/api-error";
import { byPath, parentOf } from "@/server/modules/files/files.repository";
import { operationById, operationItems } from "@/server/modules/operations/operations.repository";
import { cancelOperation, startOperation } from "@/server/modules/operations/operations.service";
import type { UploadRow } from "./portals.repository";
import { setFolderPath } from "./upload-review.repository";

/** The upload's files shown, re-pathed from its recorded folder into `folder`. */
export function filesIn(upload: UploadRow, folder: string) {
  const prefix = `${upload.folder_path}/`;
  const files = JSON.parse(upload.files_shown) as { path: string }[];
  return JSON.stringify(
    files.map((f) =>
      f.path.startsWith(prefix) ? { ...f, path: folder + f.path.slice(prefix.length - 1) } : f,
    ),
  );
}

/**
 * An upload landing in the approved folder itself (approvedPath = targetPath) is approved where it
 * stands: a move there would be refused (`same_folder`) and the approval with it, every time.
 */
export const alreadyIn = (upload: UploadRow, approvedPath: string) =>
  parentOf(upload.folder_path) === approvedPath;

/**
 * The upload's folder goes into the approved folder (a move job); its record names it there and
 * keeps where it came from and the job, for an undo.
 */
export function moveApproved(
  deps: AppDeps,
  workspaceId: string,
  upload: UploadRow,
  approvedPath: string,
) {
  if (alreadyIn(upload, approvedPath) || !byPath(deps.db, workspaceId, upload.folder_path)) return;
  // The files module makes the folder: it keeps the tree's counts and records file.created.
  deps.files.ensureFolder(workspaceId, approvedPath, deps.clock.now());
  const job = startOperation(deps, workspaceId, {
    kind: "move",
    paths: [upload.folder_path],
    destination: approvedPath,
    onConflict: "keepBoth",
  });
  const folder = joinPath(approvedPath, baseName(upload.folder_path));
  setFolderPath(deps.db, upload.id, folder, filesIn(upload, folder), {
    from: upload.folder_path,
    jobId: job.id,
  });
}

/** An undo refused: something now stands where the folder would go back. */
export const placeTaken = (folder: string, upload: UploadRow, at: string) =>
  new ApiError(
    409,
    "conflict",
    `"${folder}" is taken now: the upload's folder cannot go back there; move or rename what is there first`,
    { path: folder, uploadId: upload.id, folder: at },
  );

/**
 * Undoes an approval's move, in the caller's transaction: a move not yet run is cancelled (its one
 * item is then done or not at all); a folder the move put in the approved folder goes back into
 * the folder it came from with a move job. Refused (409 `conflict`) when something now stands
 * where it would land. The record names the folder where it ends up.
 */
export function moveBack(deps: AppDeps, workspaceId: string, upload: UploadRow) {
  const { db } = deps;
  const from = upload.moved_from;
  if (from === null) return;
  const job = upload.move_job_id ? operationById(db, workspaceId, upload.move_job_id) : undefined;
  if (job && (job.status === "queued" || job.status === "running"))
    cancelOperation(deps, workspaceId, job.id);
  const item = job ? operationItems(db, job.id)[0] : undefined;
  const at = item?.status === "done" ? item.destination_path : null;
  let folder = from;
  if (at !== null && byPath(db, workspaceId, at)) {
    // keepBoth may have renamed it on the way in: it goes back under the name it has now.
    folder = joinPath(parentOf(from), baseName(at));
    if (byPath(db, workspaceId, folder)) throw placeTaken(folder, upload, at);
    deps.files.ensureFolder(workspaceId, parentOf(from), deps.clock.now());
    startOperation(deps, workspaceId, { kind: "move", paths: [at], destination: parentOf(from) });
  }
  setFolderPath(db, upload.id, folder, filesIn(upload, folder), null);
}
