import mime from "mime";
import type { z } from "zod";
import {
  PORTAL_UPLOAD_FILES_SHOWN,
  PORTALS_LIST_MAX,
  type PortalRules,
  portalStateOf,
} from "@/contract/portal-rules";
import type {
  createPortalBodySchema,
  Portal,
  PortalDetail,
  PortalSpec,
  updatePortalBodySchema,
} from "@/contract/portals";
import { baseName } from "@/contract/rules";
import { terminalTransferStates } from "@/contract/transfers";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { notFound } from "@/server/lib/api-error";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { byPath } from "@/server/modules/files/files.repository";
import { queueMessage } from "@/server/modules/mail/mailer";
import { updateTransfer } from "@/server/modules/transfers/transfers.service";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import {
  checkChangeable,
  createdEvent,
  createPassword,
  fileInTheWay,
  foldersOf,
  inviteMessages,
  newPortalRow,
  portalChanges,
  portalUrl,
  updatePassword,
} from "./portal-rows";
import {
  awaitingCount,
  insertPortal,
  listPortalRows,
  markPortalRevoked,
  markUploadFailed,
  type PortalRow,
  portalById,
  updatePortalRow,
  uploadsInFlight,
  uploadsOfPortal,
} from "./portals.repository";
import { type StoredFile, toUpload } from "./upload-view";

/** Uploads a portal's detail lists (the queue pages through all of them). */
export const DETAIL_UPLOADS = 200;

export const portalBase = (deps: Pick<AppDeps, "config">, origin: string) =>
  deps.config.publicUrl ?? origin;

export const rulesOf = (row: Pick<PortalRow, "rules">) => JSON.parse(row.rules) as PortalRules;
export const specOf = (row: Pick<PortalRow, "spec">) =>
  row.spec === null ? null : (JSON.parse(row.spec) as PortalSpec);

/** Uploads land in folders under the target: a file standing there would refuse every commit. */
function checkFolder(deps: AppDeps, workspaceId: string, folder: string | null, field: string) {
  for (const p of foldersOf(folder))
    if (byPath(deps.db, workspaceId, p)?.is_file) throw fileInTheWay(field, p);
}

export const toPortal = (deps: AppDeps, row: PortalRow, base: string, awaiting?: number) =>
  portalView(row, base, awaiting ?? awaitingCount(deps.db, row.id), deps.clock.now());

/** A portal as the API shows it, with its uploads awaiting review, at `now` (expired or not). */
export function portalView(row: PortalRow, base: string, awaiting: number, now: number): Portal {
  return {
    id: row.id,
    slug: row.slug,
    url: portalUrl(base, row.slug),
    title: row.title,
    message: row.message,
    targetPath: row.target_path,
    requireEmail: row.require_email === 1,
    hasPassword: row.password_hash !== null,
    maxBytesPerUpload: row.max_bytes_per_upload,
    expiresAt: toIsoOrNull(row.expires_at),
    notifyOnUpload: row.notify_on_upload === 1,
    notifySender: JSON.parse(row.notify_sender),
    status: row.status,
    uploadCount: row.upload_count,
    bytesReceived: row.bytes_received,
    createdAt: toIso(row.created_at),
    expired: portalStateOf({ status: row.status, expiresAt: row.expires_at }, now) === "expired",
    awaitingReview: awaiting,
    projectId: row.project_id,
    dueAt: toIsoOrNull(row.due_at),
    fields: JSON.parse(row.fields),
    rules: rulesOf(row),
    spec: specOf(row),
    approvedPath: row.approved_path,
    invites: { emails: JSON.parse(row.invite_emails), phones: JSON.parse(row.invite_phones) },
    updatedAt: toIso(row.updated_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    lastUploadAt: toIsoOrNull(row.last_upload_at),
  };
}

/**
 * The files shown on an upload's record (the queue's thumbnails and the inspector): the first
 * few, with a type and both SHA-256s; the media probe adds `media` once it has run.
 */
export const filesShown = (
  files: { path: string; size: number; sha256?: string | null; sender_sha256?: string | null }[],
): StoredFile[] =>
  files.slice(0, PORTAL_UPLOAD_FILES_SHOWN).map((f) => ({
    path: f.path,
    size: f.size,
    mime: mime.getType(baseName(f.path)),
    senderSha256: f.sender_sha256 ?? null,
    sha256: f.sha256 ?? null,
    media: null,
  }));

export const noPortal = (id: string) => notFound(`Portal ${id}`, { portalId: id });

export function portalOf(deps: AppDeps, workspaceId: string, id: string) {
  const row = portalById(deps.db, workspaceId, id);
  if (!row) throw noPortal(id);
  return row;
}

export async function createPortal(
  deps: AppDeps,
  caller: Caller,
  body: z.output<typeof createPortalBodySchema>,
): Promise<Portal> {
  const passwordHash = await createPassword(body);
  const { db } = deps;
  const base = portalBase(deps, caller.origin);
  return db
    .transaction((): Portal => {
      const now = deps.clock.now();
      checkFolder(deps, caller.workspaceId, body.targetPath, "targetPath");
      checkFolder(deps, caller.workspaceId, body.approvedPath ?? null, "approvedPath");
      const fresh = newPortalRow(caller, body, passwordHash, now);
      insertPortal(db, fresh);
      const row = portalById(db, caller.workspaceId, fresh.id)!;
      const workspaceName = getWorkspace(db, caller.workspaceId)?.name ?? "";
      for (const m of inviteMessages(row, workspaceName, base)) queueMessage(deps, m, now);
      deps.events.record(caller.workspaceId, "portal.created", createdEvent(row));
      return toPortal(deps, row, base, 0);
    })
    .immediate();
}

export const listPortals = (deps: AppDeps, workspaceId: string, origin: string): Portal[] =>
  listPortalRows(deps.db, workspaceId, PORTALS_LIST_MAX).map((row) =>
    toPortal(deps, row, portalBase(deps, origin), row.awaiting),
  );

export function getPortal(
  deps: AppDeps,
  workspaceId: string,
  id: string,
  origin: string,
): PortalDetail {
  const row = portalOf(deps, workspaceId, id);
  return {
    ...toPortal(deps, row, portalBase(deps, origin)),
    uploads: uploadsOfPortal(deps.db, row.id, DETAIL_UPLOADS).map(toUpload),
  };
}

export async function updatePortal(
  deps: AppDeps,
  workspaceId: string,
  id: string,
  body: z.output<typeof updatePortalBodySchema>,
  origin: string,
): Promise<Portal> {
  const passwordHash = await updatePassword(body);
  const { db } = deps;
  return db
    .transaction((): Portal => {
      const now = deps.clock.now();
      const row = portalOf(deps, workspaceId, id);
      checkChangeable(row);
      if (body.approvedPath) checkFolder(deps, workspaceId, body.approvedPath, "approvedPath");
      const changes = portalChanges(body, passwordHash, now);
      updatePortalRow(db, id, changes, now);
      return toPortal(deps, portalById(db, workspaceId, id)!, portalBase(deps, origin));
    })
    .immediate();
}

/**
 * DELETE: revoked for good, and in the same transaction every upload still arriving is cancelled
 * (its transfer cancelled, so the node drops what it staged and refuses its token; the upload
 * `failed`). The spec lists no revoke event for portals, so none is recorded.
 */
export function revokePortal(deps: AppDeps, workspaceId: string, id: string) {
  deps.db
    .transaction(() => {
      const row = portalOf(deps, workspaceId, id);
      if (!markPortalRevoked(deps.db, row.id, deps.clock.now())) return;
      for (const u of uploadsInFlight(deps.db, row.id)) {
        if (!terminalTransferStates.includes(u.transfer_status))
          updateTransfer(deps, workspaceId, u.transfer_id, {
            status: "cancelled",
            filesDone: u.files_committed,
            bytesDone: u.bytes_committed,
          });
        markUploadFailed(deps.db, u.id);
      }
    })
    .immediate();
}
