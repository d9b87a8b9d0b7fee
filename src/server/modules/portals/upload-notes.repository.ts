import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";
import type { AnchorColumns } from "@/server/lib/media-anchor";

/** A `portal_upload_notes` row (migration 0018); `anchor_path` is relative to the upload's folder. */
export interface UploadNoteRow extends AnchorColumns {
  id: string;
  upload_id: string;
  body: string;
  member_id: string | null;
  key_id: string | null;
  author_name: string | null;
  author_email: string | null;
  created_at: number;
}

export const insertUploadNote = (db: Db, row: UploadNoteRow) =>
  stmt(
    db,
    `INSERT INTO portal_upload_notes (id, upload_id, body, anchor_path, anchor_time_ms, anchor_page,
       member_id, key_id, author_name, author_email, created_at)
     VALUES (@id, @upload_id, @body, @anchor_path, @anchor_time_ms, @anchor_page,
       @member_id, @key_id, @author_name, @author_email, @created_at)`,
  ).run(row);

/** Oldest first (ids grow with time). */
export const notesOfUpload = (db: Db, uploadId: string, limit: number) =>
  stmt<[string, number], UploadNoteRow>(
    db,
    "SELECT * FROM portal_upload_notes WHERE upload_id = ? ORDER BY id LIMIT ?",
  ).all(uploadId, limit);

export const countUploadNotes = (db: Db, uploadId: string) =>
  stmt<[string], number>(db, "SELECT count(*) FROM portal_upload_notes WHERE upload_id = ?")
    .pluck()
    .get(uploadId)!;

export const uploadNoteById = (db: Db, uploadId: string, id: string) =>
  stmt<[string, string], UploadNoteRow>(
    db,
    "SELECT * FROM portal_upload_notes WHERE upload_id = ? AND id = ?",
  ).get(uploadId, id);

export const deleteUploadNote = (db: Db, id: string) =>
  stmt(db, "DELETE FROM portal_upload_notes WHERE id = ?").run(id);
