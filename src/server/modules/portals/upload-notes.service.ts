import type { z } from "zod";
import type { MediaAnchor } from "@/contract/media";
import type { createUploadNoteBodySchema, UploadNote } from "@/contract/portal-review";
import { UPLOAD_NOTES_MAX } from "@/contract/portal-rules";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { ApiError, notFound, validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { anchorColumns, anchorOf, checkAnchor, probedFacts } from "@/server/lib/media-anchor";
import { byPath, type EntryRow } from "@/server/modules/files/files.repository";
// The media module's probe of the content (duration, pages): a read of its table by its function.
import { type ProbeRow, probeOf } from "@/server/modules/media/renditions.repository";
import { getMember, type MemberRow } from "@/server/modules/members/members.repository";
import { type UploadRow, uploadRow } from "./portals.repository";
import {
  countUploadNotes,
  deleteUploadNote,
  insertUploadNote,
  notesOfUpload,
  type UploadNoteRow,
  uploadNoteById,
} from "./upload-notes.repository";
import type { StoredFile } from "./upload-view";

/*
 * Review notes on an upload's files (docs/api-decisions.md, Media): members write them, each may
 * point at a time or a PDF page of one of the upload's files. The anchor is kept relative to the
 * upload's folder, so a note still points at its file after an approval moves the folder.
 */

export type NoteBody = z.output<typeof createUploadNoteBodySchema>;

/** 404 unless the upload is one of the workspace's. */
export function knownUpload(upload: UploadRow | undefined, workspaceId: string, uploadId: string) {
  if (!upload || upload.workspace_id !== workspaceId)
    throw notFound(`Upload ${uploadId}`, { uploadId });
  return upload;
}

const requireUpload = (deps: AppDeps, workspaceId: string, uploadId: string) =>
  knownUpload(uploadRow(deps.db, uploadId), workspaceId, uploadId);

export const toNote = (upload: UploadRow, n: UploadNoteRow): UploadNote => ({
  id: n.id,
  uploadId: n.upload_id,
  body: n.body,
  anchor: anchorOf(n, n.anchor_path === null ? null : `${upload.folder_path}/${n.anchor_path}`),
  author: { id: n.member_id, name: n.author_name, email: n.author_email },
  createdAt: toIso(n.created_at),
});

/** Whether an anchor's path is inside the upload's folder: only then is the tree read for it. */
export const inFolder = (upload: UploadRow, anchor: MediaAnchor) =>
  anchor.path.startsWith(`${upload.folder_path}/`);

/** The anchor's file as the upload lists it (its first 12). */
export const shownFile = (upload: UploadRow, anchor: MediaAnchor) =>
  (JSON.parse(upload.files_shown) as StoredFile[]).find((f) => f.path === anchor.path);

/**
 * The anchored file must be in the upload's folder and one of its files: listed on the upload,
 * or a live file there (`live`, read only when inFolder). Its duration is what the media probe
 * found (`probe`, of the live or listed content), when it ran. Returns the path relative to the
 * folder.
 */
export function checkNoteAnchor(
  upload: UploadRow,
  anchor: MediaAnchor,
  live: EntryRow | undefined,
  probe: ProbeRow | undefined,
) {
  const shown = shownFile(upload, anchor);
  if (!inFolder(upload, anchor) || (!shown && !live?.is_file))
    throw validationFailed(
      "anchor.path",
      `"${anchor.path}" is not one of this upload's files`,
      "not_in_upload",
    );
  const probed = probedFacts(probe);
  checkAnchor("anchor", anchor, {
    mime: shown?.mime ?? live?.mime ?? null,
    durationMs: shown?.media?.durationMs ?? probed.durationMs,
    pageCount: probed.pageCount,
  });
  return anchor.path.slice(upload.folder_path.length + 1);
}

function anchorOnSqlite(deps: AppDeps, upload: UploadRow, anchor: MediaAnchor) {
  const live = inFolder(upload, anchor)
    ? byPath(deps.db, upload.workspace_id, anchor.path)
    : undefined;
  const sha256 = live?.sha256 ?? shownFile(upload, anchor)?.sha256;
  return checkNoteAnchor(upload, anchor, live, sha256 ? probeOf(deps.db, sha256) : undefined);
}

/** 409 `conflict` once an upload holds UPLOAD_NOTES_MAX notes. */
export function checkNoteCount(count: number) {
  if (count >= UPLOAD_NOTES_MAX)
    throw new ApiError(409, "conflict", `An upload keeps at most ${UPLOAD_NOTES_MAX} notes`, {
      reason: "too_many_notes",
      limit: UPLOAD_NOTES_MAX,
    });
}

/** A new note's row: the key's member is its author. */
export const noteRow = (
  caller: Caller,
  upload: UploadRow,
  body: NoteBody,
  relative: string | undefined,
  member: Pick<MemberRow, "name" | "email"> | undefined,
  now: number,
): UploadNoteRow => ({
  id: newId(),
  upload_id: upload.id,
  body: body.body,
  ...anchorColumns(body.anchor, relative),
  member_id: caller.memberId,
  key_id: caller.keyId,
  author_name: member?.name ?? null,
  author_email: member?.email ?? null,
  created_at: now,
});

/** The note its author may delete: the same member, or the same key for a key without one. */
export function ownNote(note: UploadNoteRow | undefined, caller: Caller, noteId: string) {
  if (!note) throw notFound(`Note ${noteId}`, { noteId });
  const own =
    note.member_id !== null ? note.member_id === caller.memberId : note.key_id === caller.keyId;
  if (!own)
    throw new ApiError(403, "forbidden", "Only its author deletes a note", {
      reason: "not_the_author",
    });
  return note;
}

export function listUploadNotes(deps: AppDeps, workspaceId: string, uploadId: string) {
  const upload = requireUpload(deps, workspaceId, uploadId);
  return {
    items: notesOfUpload(deps.db, upload.id, UPLOAD_NOTES_MAX).map((n) => toNote(upload, n)),
  };
}

/** The key's member is the author. At most UPLOAD_NOTES_MAX notes an upload (409 `conflict`). */
export function addUploadNote(
  deps: AppDeps,
  caller: Caller,
  uploadId: string,
  body: NoteBody,
): UploadNote {
  return deps.db
    .transaction((): UploadNote => {
      const upload = requireUpload(deps, caller.workspaceId, uploadId);
      const relative = body.anchor ? anchorOnSqlite(deps, upload, body.anchor) : undefined;
      checkNoteCount(countUploadNotes(deps.db, upload.id));
      const member = caller.memberId === null ? undefined : getMember(deps.db, caller.memberId);
      const row = noteRow(caller, upload, body, relative, member, deps.clock.now());
      insertUploadNote(deps.db, row);
      return toNote(upload, row);
    })
    .immediate();
}

/**
 * Its author deletes a note: the same member, or the same key for a key without a member.
 * Someone else's: 403 `forbidden` (`details.reason` `not_the_author`).
 */
export function removeUploadNote(deps: AppDeps, caller: Caller, uploadId: string, noteId: string) {
  const upload = requireUpload(deps, caller.workspaceId, uploadId);
  const note = ownNote(uploadNoteById(deps.db, upload.id, noteId), caller, noteId);
  deleteUploadNote(deps.db, note.id);
}
