import type { SenderStatusPage } from "@/contract/portal-public";
import {
  PORTAL_LINK_PREFIX,
  PORTAL_STATUS_SEGMENT,
  type PortalUploadStatus,
  type SenderStatus,
} from "@/contract/portal-rules";
import type { AppDeps } from "@/server/deps";
import { issueAccessToken, validAccessToken } from "@/server/lib/access-tokens";
import { notFound } from "@/server/lib/api-error";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { type OutgoingMessage, queueMessage } from "@/server/modules/mail/mailer";
import { withdrawMessage } from "@/server/modules/mail/outbox.repository";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { type PortalRow, type UploadRow, uploadRow } from "./portals.repository";
import { resolvePortal } from "./public.service";
import { setDecisionMail } from "./upload-review.repository";

/*
 * The sender's side of a decision: the status page of their upload (`/p/{slug}/status/{id}`,
 * opened by a token, no key) and the mail a decision sends when the portal asks for it.
 * The token is an access token (lib/access-tokens.ts) for the upload, valid a year from when it
 * landed: reproducible (the confirmation asked again carries the same link), nothing stored,
 * and no key of the portal's page opens it.
 */

const STATUS_KEY = { file: "portal-status.key" };
const STATUS_TTL_MS = 365 * 86_400_000;
const subjectOf = (uploadId: string) => `upload-status:${uploadId}`;

export const referenceOf = (uploadId: string) => uploadId.slice(-8).toUpperCase();

/** The status page's address of a landed upload, its token in the fragment. */
export function statusUrl(
  deps: Pick<AppDeps, "config">,
  base: string,
  slug: string,
  upload: UploadRow,
) {
  const key = { dataDir: deps.config.dataDir, ...STATUS_KEY };
  const token = issueAccessToken(key, subjectOf(upload.id), upload.completed_at! + STATUS_TTL_MS);
  return `${base}${PORTAL_LINK_PREFIX}${slug}${PORTAL_STATUS_SEGMENT}${upload.id}#${token}`;
}

const senderStatusOf: Partial<Record<PortalUploadStatus, SenderStatus>> = {
  received: "received",
  pending: "in_review",
  approved: "approved",
  rejected: "rejected",
};

/**
 * What the status page shows. An unknown upload, one of another portal, one that never landed
 * and a token that does not open it are all 404: a guess learns nothing.
 */
export function statusPage(
  deps: Pick<AppDeps, "config" | "clock">,
  portal: PortalRow,
  upload: UploadRow | undefined,
  workspaceName: string,
  token: string | undefined,
): SenderStatusPage {
  const status = upload && senderStatusOf[upload.status];
  const key = { dataDir: deps.config.dataDir, ...STATUS_KEY };
  if (
    !upload ||
    !status ||
    upload.portal_id !== portal.id ||
    !validAccessToken(key, subjectOf(upload.id), token, deps.clock.now())
  )
    throw notFound("Upload", { reason: "unknown_upload" });
  const decided = status === "approved" || status === "rejected";
  return {
    uploadId: upload.id,
    reference: referenceOf(upload.id),
    portalTitle: portal.title,
    workspaceName,
    status,
    noteToSender: upload.note_to_sender,
    decidedAt: decided ? toIsoOrNull(upload.reviewed_at) : null,
    receivedAt: toIso(upload.completed_at!),
    fileCount: upload.file_count ?? 0,
    bytes: upload.bytes_total ?? 0,
  };
}

export function senderStatus(
  deps: AppDeps,
  slug: string,
  uploadId: string,
  token: string | undefined,
): SenderStatusPage {
  const portal = resolvePortal(deps.db, slug);
  const workspaceName = getWorkspace(deps.db, portal.workspace_id)?.name ?? "";
  return statusPage(deps, portal, uploadRow(deps.db, uploadId), workspaceName, token);
}

const DECISION_MAIL_HOLD_MS = 15_000;
const decisionWords = { approved: "approved", rejected: "not accepted" } as const;

/**
 * After a decision, in its transaction: a mail of an earlier decision that has not left yet is
 * withdrawn (the reviewer changed their mind, or undid it), and an approval or rejection the
 * portal's `notifySender` asks for is mailed to the sender, with the note to the sender and the
 * status page's link (kept in the outbox only until it is sent).
 */
export function tellSender(deps: AppDeps, portal: PortalRow, upload: UploadRow, base: string) {
  const { db } = deps;
  if (upload.decision_mail_id) withdrawMessage(db, upload.decision_mail_id);
  const decision = decisionToMail(portal, upload);
  const mailId = decision
    ? queueMessage(
        deps,
        decisionMail(deps, portal, upload, base, {
          decision,
          workspaceName: getWorkspace(db, portal.workspace_id)?.name ?? "",
        }),
        deps.clock.now(),
      )
    : null;
  setDecisionMail(db, upload.id, mailId);
}

/** The decision to mail the sender: one the portal's `notifySender` asks for, to an address. */
export function decisionToMail(portal: PortalRow, upload: UploadRow) {
  const decision =
    upload.status === "approved" || upload.status === "rejected" ? upload.status : null;
  const asked = JSON.parse(portal.notify_sender) as Record<"approved" | "rejected", boolean>;
  return decision && asked[decision] && upload.sender_email ? decision : null;
}

/** The decision's mail: the note to the sender and the status page's link. */
export function decisionMail(
  deps: Pick<AppDeps, "config">,
  portal: PortalRow,
  upload: UploadRow,
  base: string,
  { decision, workspaceName }: { decision: "approved" | "rejected"; workspaceName: string },
): OutgoingMessage {
  const reference = referenceOf(upload.id);
  return {
    workspaceId: portal.workspace_id,
    portalId: portal.id,
    to: upload.sender_email!,
    subject: `Your upload ${reference} was ${decisionWords[decision]} (${workspaceName})`,
    body: [
      `${workspaceName} reviewed the files you sent through "${portal.title}" (reference ${reference}): ${decisionWords[decision]}.`,
      ...(upload.note_to_sender ? ["", upload.note_to_sender] : []),
      "",
      "Your upload's status page: {{link}}",
    ].join("\n"),
    link: statusUrl(deps, base, portal.slug, upload),
    // Longer than the console's Undo stays on screen: an undone decision mails nobody.
    holdMs: DECISION_MAIL_HOLD_MS,
  };
}
