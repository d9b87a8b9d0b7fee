import type { PortalUploadStatus, SpecCheckStatus } from "@/contract/portal-rules";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/*
 * What a decision, an approval's folder move and the media probe write to an upload (the reads
 * and the rest of the upload's life are in portals.repository.ts).
 */

export const recordReview = (
  db: Db,
  id: string,
  r: {
    status: PortalUploadStatus;
    note: string | null;
    noteToSender: string | null;
    memberId: string | null;
    now: number;
  },
) =>
  stmt(
    db,
    `UPDATE portal_uploads SET status = @status, review_note = @note,
       note_to_sender = @noteToSender, reviewed_by = @memberId, reviewed_at = @now WHERE id = @id`,
  ).run({ id, ...r });

export const setDecisionMail = (db: Db, id: string, mailId: string | null) =>
  stmt(db, "UPDATE portal_uploads SET decision_mail_id = ? WHERE id = ?").run(mailId, id);

/** An upload's folder moved (approved, or undone): `move` is where from and the job, or null. */
export const setFolderPath = (
  db: Db,
  id: string,
  folder: string,
  filesShown: string,
  move: { from: string; jobId: string } | null,
) =>
  stmt(
    db,
    `UPDATE portal_uploads SET folder_path = ?, files_shown = ?, moved_from = ?, move_job_id = ?
     WHERE id = ?`,
  ).run(folder, filesShown, move?.from ?? null, move?.jobId ?? null, id);

export const recordSpecCheck = (
  db: Db,
  id: string,
  r: { status: SpecCheckStatus; result: string; now: number },
) =>
  stmt(
    db,
    "UPDATE portal_uploads SET spec_status = @status, spec_result = @result, spec_checked_at = @now WHERE id = @id",
  ).run({ id, ...r });

/**
 * The files an upload's transfer committed: path, size and the SHA-256 the node verified. From
 * the transfers module's `transfer_uploads`, since an upload's files are its transfer's.
 */
export const committedFiles = (db: Db, transferId: string) =>
  stmt<
    [string],
    { path: string; size: number; sha256: string | null; sender_sha256: string | null }
  >(
    db,
    // The sender's SHA-256 is what its page declared in the tus metadata (the node's UploadMeta).
    `SELECT path, size, sha256, json_extract(metadata, '$.expectedSha256') AS sender_sha256
     FROM transfer_uploads WHERE transfer_id = ? AND status = 'committed' ORDER BY rowid`,
  ).all(transferId);

/** The files shown, rewritten whole (the media probe adds what it found to each). */
export const setFilesShown = (db: Db, id: string, filesShown: string) =>
  stmt(db, "UPDATE portal_uploads SET files_shown = ? WHERE id = ?").run(filesShown, id);
