import type { PortalUpload, PortalUploadFile, SpecCheck } from "@/contract/portals";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import type { UploadView } from "./portals.repository";

/**
 * A file as `files_shown` keeps it. Uploads that landed before the SHA-256s and the media were
 * kept have only path, size and mime: the rest reads as unknown.
 */
export type StoredFile = Omit<PortalUploadFile, "sha256Matches">;

const fileOf = (f: Partial<StoredFile> & Pick<StoredFile, "path" | "size">): PortalUploadFile => {
  const senderSha256 = f.senderSha256 ?? null;
  const sha256 = f.sha256 ?? null;
  return {
    path: f.path,
    size: f.size,
    mime: f.mime ?? null,
    senderSha256,
    sha256,
    sha256Matches: senderSha256 === null || sha256 === null ? null : senderSha256 === sha256,
    media: f.media ?? null,
  };
};

const notRequired: SpecCheck = { status: "not_required", checkedAt: null, problems: [], files: [] };

/** An upload as the console shows it, in a portal's detail and in the review queue. */
export function toUpload(u: UploadView): PortalUpload {
  const spec = u.spec_result
    ? (JSON.parse(u.spec_result) as Omit<SpecCheck, "status" | "checkedAt">)
    : null;
  return {
    id: u.id,
    senderEmail: u.sender_email,
    senderName: u.sender_name,
    message: u.message,
    folderPath: u.folder_path,
    fileCount: u.file_count,
    bytesTotal: u.bytes_total,
    bytesDone: u.status === "uploading" ? (u.bytes_committed ?? 0) : (u.bytes_total ?? 0),
    status: u.status,
    createdAt: toIso(u.created_at),
    completedAt: toIsoOrNull(u.completed_at),
    portalId: u.portal_id,
    portalTitle: u.portal_title,
    transferId: u.transfer_id,
    fields: JSON.parse(u.fields),
    files: (JSON.parse(u.files_shown) as StoredFile[]).map(fileOf),
    specCheck:
      u.spec_status === "not_required"
        ? notRequired
        : {
            status: u.spec_status,
            checkedAt: toIsoOrNull(u.spec_checked_at),
            problems: spec?.problems ?? [],
            files: spec?.files ?? [],
          },
    reviewNote: u.review_note,
    noteToSender: u.note_to_sender,
    reviewedAt: toIsoOrNull(u.reviewed_at),
    reviewedBy:
      u.reviewed_by && u.reviewer_name !== null
        ? { id: u.reviewed_by, name: u.reviewer_name, email: u.reviewer_email ?? "" }
        : null,
  };
}
