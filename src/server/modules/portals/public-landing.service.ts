import type { EventData } from "@/contract/events";
import type { PortalConfirmation } from "@/contract/portal-public";
import type { AppDeps } from "@/server/deps";
import { ApiError, notFound, validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { hashSecret } from "@/server/lib/secrets";
import { queueMessage } from "@/server/modules/mail/mailer";
import { byTokenHash } from "@/server/modules/transfers/transfers.repository";
import { updateTransfer } from "@/server/modules/transfers/transfers.service";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { requireOpenPortal } from "./portal-gate";
import { SPEC_CHECK_JOB } from "./portal-spec";
import {
  adminEmails,
  countLanded,
  markReceived,
  markUploadFailed,
  type PortalRow,
  type UploadRow,
  uploadRow,
} from "./portals.repository";
import { filesShown, portalBase } from "./portals.service";
import { type PortalRequest, resolvePortal } from "./public.service";
import { referenceOf, statusUrl } from "./sender-status.service";
import { committedFiles } from "./upload-review.repository";

/*
 * An upload's end on a portal's page: landed (the confirmation, the notices, the media check) or
 * given up. Both carry the upload's transfer token as the bearer.
 */

/**
 * The upload of this portal that the bearer's transfer token belongs to. The token is matched by
 * its hash, whatever the transfer's state: a sender asking again for a confirmation whose first
 * answer was lost holds a token whose transfer has completed.
 */
function uploadOfToken(deps: AppDeps, req: PortalRequest, uploadId: string, token?: string) {
  const portal = resolvePortal(deps.db, req.slug);
  const upload = uploadRow(deps.db, uploadId);
  if (!upload || upload.portal_id !== portal.id) throw notFound(`Upload ${uploadId}`, { uploadId });
  const transfer = token ? byTokenHash(deps.db, hashSecret(token)) : undefined;
  if (!transfer)
    throw new ApiError(401, "unauthenticated", "The upload's transfer token is required", {
      reason: token ? "unknown" : "missing",
    });
  if (transfer.id !== upload.transfer_id)
    throw new ApiError(403, "forbidden", "This token is not this upload's", {
      reason: "other_upload",
    });
  return { portal, upload, transfer };
}

function noticeText(
  portal: PortalRow,
  a: { folder: string; files: number; bytes: number; sender: string },
) {
  return [
    `${a.sender} uploaded ${a.files} file${a.files === 1 ? "" : "s"} (${a.bytes} bytes) through "${portal.title}".`,
    "",
    `They are in ${a.folder}, waiting for review in the console (Portals).`,
  ].join("\n");
}

/**
 * The sender's engine reports the upload done: the transfer completes (the node must have
 * committed every file: `not_committed`, which the page retries), and in the same transaction
 * the upload is `received`, the portal counts it, `portal.upload.completed` is recorded, the
 * media check is queued, the sender gets a confirmation and, if the portal asks, the admins a
 * notice.
 */
export function completeUpload(
  deps: AppDeps,
  req: PortalRequest,
  uploadId: string,
  token?: string,
): PortalConfirmation {
  const { db } = deps;
  return db
    .transaction((): PortalConfirmation => {
      const { portal, upload, transfer } = uploadOfToken(deps, req, uploadId, token);
      const files = () => committedFiles(db, transfer.id);
      const workspaceName = getWorkspace(db, portal.workspace_id)?.name ?? "";
      // Asked again (the first answer was lost): the same confirmation, nothing recorded twice.
      if (upload.status !== "uploading" && upload.status !== "failed")
        return confirmationOf(deps, req, portal, upload, files(), workspaceName);
      // A portal closed while the files were on their way takes nothing more; paused, the same
      // report lands once it is active again.
      requireOpenPortal(portal, deps.clock.now());
      if (upload.status === "failed")
        throw validationFailed("uploadId", "This upload was cancelled", "cancelled");
      updateTransfer(deps, portal.workspace_id, transfer.id, {
        status: "completed",
        filesDone: transfer.files_committed,
        bytesDone: transfer.bytes_committed,
      });
      landed(deps, portal, upload, files(), workspaceName, portalBase(deps, req.origin));
      return confirmationOf(deps, req, portal, uploadRow(db, upload.id)!, files(), workspaceName);
    })
    .immediate();
}

type CommittedFile = ReturnType<typeof committedFiles>[number];

/** What the sender keeps, of an upload that landed. */
function confirmationOf(
  deps: AppDeps,
  req: PortalRequest,
  portal: PortalRow,
  upload: UploadRow,
  files: CommittedFile[],
  workspaceName: string,
): PortalConfirmation {
  return {
    uploadId: upload.id,
    reference: referenceOf(upload.id),
    portalTitle: portal.title,
    workspaceName,
    files: files.map((f) => ({
      path: f.path.slice(upload.folder_path.length + 1),
      size: f.size,
      sha256: f.sha256 ?? "",
    })),
    fileCount: files.length,
    bytes: files.reduce((n, f) => n + f.size, 0),
    completedAt: toIso(upload.completed_at!),
    senderEmail: upload.sender_email,
    statusUrl: statusUrl(deps, portalBase(deps, req.origin), portal.slug, upload),
  };
}

/** Everything that follows an upload landing, in the caller's transaction. */
function landed(
  deps: AppDeps,
  portal: PortalRow,
  upload: UploadRow,
  files: CommittedFile[],
  workspaceName: string,
  base: string,
) {
  const { db } = deps;
  const bytes = files.reduce((n, f) => n + f.size, 0);
  const now = deps.clock.now();
  markReceived(db, upload.id, {
    fileCount: files.length,
    bytes,
    filesShown: JSON.stringify(filesShown(files)),
    specStatus: portal.spec === null ? "not_required" : "checking",
    now,
  });
  countLanded(db, portal.id, bytes, now);
  const data: EventData<"portal.upload.completed"> = {
    portalId: portal.id,
    uploadId: upload.id,
    folder: upload.folder_path,
    files: files.length,
    bytes,
    sender: { email: upload.sender_email, name: upload.sender_name },
  };
  deps.events.record(portal.workspace_id, "portal.upload.completed", data);
  // Every upload's media is probed (what the reviewer reads); the spec is checked if there is one.
  deps.jobs.enqueue(
    SPEC_CHECK_JOB,
    { uploadId: upload.id },
    { uniqueKey: `${SPEC_CHECK_JOB}:${upload.id}` },
  );
  const reference = referenceOf(upload.id);
  if (upload.sender_email)
    queueMessage(
      deps,
      {
        workspaceId: portal.workspace_id,
        portalId: portal.id,
        to: upload.sender_email,
        subject: `${workspaceName} received your files (${reference})`,
        body: [
          `${workspaceName} received ${files.length} file${files.length === 1 ? "" : "s"} (${bytes} bytes) through "${portal.title}".`,
          `Reference: ${reference}`,
          "",
          ...files
            .slice(0, 50)
            .map(
              (f) =>
                `${f.path.slice(upload.folder_path.length + 1)}  ${f.size} bytes  SHA-256 ${f.sha256 ?? "-"}`,
            ),
          ...(files.length > 50 ? [`… and ${files.length - 50} more`] : []),
          "",
          "Follow its review on your upload's status page: {{link}}",
        ].join("\n"),
        link: statusUrl(deps, base, portal.slug, uploadRow(db, upload.id)!),
      },
      now,
    );
  if (portal.notify_on_upload === 1) {
    const sender = upload.sender_name ?? upload.sender_email ?? "Someone";
    for (const to of adminEmails(db, portal.workspace_id))
      queueMessage(
        deps,
        {
          workspaceId: portal.workspace_id,
          portalId: portal.id,
          to,
          subject: `New upload: ${portal.title}`,
          body: noticeText(portal, {
            folder: upload.folder_path,
            files: files.length,
            bytes,
            sender,
          }),
        },
        now,
      );
  }
}

/** The sender gave up: the transfer is cancelled (the node drops what it staged), the upload failed. */
export function cancelUpload(deps: AppDeps, req: PortalRequest, uploadId: string, token?: string) {
  deps.db
    .transaction(() => {
      const { portal, upload, transfer } = uploadOfToken(deps, req, uploadId, token);
      if (upload.status !== "uploading")
        throw validationFailed("uploadId", "This upload has landed already", "already_reported");
      if (transfer.status !== "cancelled")
        updateTransfer(deps, portal.workspace_id, transfer.id, {
          status: "cancelled",
          filesDone: transfer.files_committed,
          bytesDone: transfer.bytes_committed,
        });
      markUploadFailed(deps.db, upload.id);
    })
    .immediate();
}
