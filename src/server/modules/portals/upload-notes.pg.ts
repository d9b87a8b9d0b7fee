import type { UploadNote } from "@/contract/portal-review";
import { UPLOAD_NOTES_MAX } from "@/contract/portal-rules";
import { insertRowPg } from "@/server/db/pg/insert-row";
import { type PgClient, withPgTransaction } from "@/server/db/pg/pool";
import type { Caller } from "@/server/http/caller";
import { byPath } from "@/server/modules/files/tree.pg";
import type { ProbeRow } from "@/server/modules/media/renditions.repository";
import type { MemberRow } from "@/server/modules/members/members.repository";
import type { UploadRow } from "./portals.repository";
import type { PgPortalsContext, Queryable } from "./portals-store.pg";
import type { UploadNoteRow } from "./upload-notes.repository";
import {
  checkNoteAnchor,
  checkNoteCount,
  inFolder,
  knownUpload,
  type NoteBody,
  noteRow,
  ownNote,
  shownFile,
  toNote,
} from "./upload-notes.service";

/*
 * upload-notes.service.ts on PostgreSQL, with its rules (that file says why). Adding a note locks
 * its upload's row (FOR UPDATE): two notes added at once are counted one after the other against
 * the limit, and a decision moving the upload's folder waits, so the anchor is checked against
 * the folder the note is kept relative to.
 */

async function uploadPg(c: Queryable, workspaceId: string, id: string, lock = "") {
  const { rows } = await c.query<UploadRow>(`SELECT * FROM portal_uploads WHERE id = $1${lock}`, [
    id,
  ]);
  return knownUpload(rows[0], workspaceId, id);
}

async function anchorPg(c: PgClient, upload: UploadRow, anchor: NonNullable<NoteBody["anchor"]>) {
  const live = inFolder(upload, anchor)
    ? await byPath(c, upload.workspace_id, anchor.path)
    : undefined;
  const sha256 = live?.sha256 ?? shownFile(upload, anchor)?.sha256;
  const probe = sha256
    ? (await c.query<ProbeRow>("SELECT * FROM media_probes WHERE sha256 = $1", [sha256])).rows[0]
    : undefined;
  return checkNoteAnchor(upload, anchor, live, probe);
}

export async function listUploadNotesPg(ctx: PgPortalsContext, ws: string, uploadId: string) {
  const upload = await uploadPg(ctx.pool, ws, uploadId);
  const { rows } = await ctx.pool.query<UploadNoteRow>(
    "SELECT * FROM portal_upload_notes WHERE upload_id = $1 ORDER BY id LIMIT $2",
    [upload.id, UPLOAD_NOTES_MAX],
  );
  return { items: rows.map((n) => toNote(upload, n)) };
}

export function addUploadNotePg(
  ctx: PgPortalsContext,
  caller: Caller,
  uploadId: string,
  body: NoteBody,
): Promise<UploadNote> {
  return withPgTransaction(ctx.pool, async (c) => {
    const upload = await uploadPg(c, caller.workspaceId, uploadId, " FOR UPDATE");
    const relative = body.anchor ? await anchorPg(c, upload, body.anchor) : undefined;
    const count = await c.query<{ n: number }>(
      "SELECT count(*) AS n FROM portal_upload_notes WHERE upload_id = $1",
      [upload.id],
    );
    checkNoteCount(count.rows[0]!.n);
    const member =
      caller.memberId === null
        ? undefined
        : (await c.query<MemberRow>("SELECT * FROM members WHERE id = $1", [caller.memberId]))
            .rows[0];
    const row = noteRow(caller, upload, body, relative, member, ctx.clock.now());
    await insertRowPg(c, "portal_upload_notes", row);
    return toNote(upload, row);
  });
}

export async function removeUploadNotePg(
  ctx: PgPortalsContext,
  caller: Caller,
  uploadId: string,
  noteId: string,
) {
  const upload = await uploadPg(ctx.pool, caller.workspaceId, uploadId);
  const { rows } = await ctx.pool.query<UploadNoteRow>(
    "SELECT * FROM portal_upload_notes WHERE upload_id = $1 AND id = $2",
    [upload.id, noteId],
  );
  await ctx.pool.query("DELETE FROM portal_upload_notes WHERE id = $1", [
    ownNote(rows[0], caller, noteId).id,
  ]);
}
