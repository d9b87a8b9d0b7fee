import type { z } from "zod";
import type { EventData } from "@/contract/events";
import type {
  PortalConfirmation,
  PublicPortal,
  StartedPortalUpload,
  startPortalUploadBodySchema,
} from "@/contract/portal-public";
import {
  PORTAL_ACCESS_TTL_SECONDS,
  portalFileProblem,
  portalStateOf,
  portalUploadProblem,
  uploadFolderName,
} from "@/contract/portal-rules";
import type { PortalField } from "@/contract/portals";
import { joinPath, normalizeName, parentOf, pathProblem } from "@/contract/rules";
import type { Db } from "@/server/db/database";
import type { AppDeps } from "@/server/deps";
import { issueAccessToken, validAccessToken } from "@/server/lib/access-tokens";
import { ApiError, notFound, pathRejected, validationFailed } from "@/server/lib/api-error";
import { tryPassword } from "@/server/lib/attempt-limiter";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { passwordMatches, wrongPassword } from "@/server/lib/passwords";
import { hashSecret } from "@/server/lib/secrets";
import { queueMessage } from "@/server/modules/shares/mailer";
import { startTransfer } from "@/server/modules/transfers/start.service";
import { byTokenHash } from "@/server/modules/transfers/transfers.repository";
import { updateTransfer } from "@/server/modules/transfers/transfers.service";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { requireOpenPortal } from "./portal-gate";
import { SPEC_CHECK_JOB } from "./portal-spec";
import {
  adminEmails,
  committedFiles,
  countLanded,
  insertUpload,
  markReceived,
  markUploadFailed,
  type PortalRow,
  portalBySlug,
  type UploadRow,
  uploadRow,
} from "./portals.repository";
import { filesShown, nameMatches, rulesOf, specOf } from "./portals.service";

/*
 * The sender's side of a portal: open it by its slug, unlock it (the same slow-down for wrong
 * passwords as a share's), start an upload (a send transfer, client `portal`, into a folder of
 * its own), and report it landed. The data node checks every file against the portal again
 * (`portal-gate.ts`).
 */

// The password's hash is in the subject: changing or removing the password signs every
// visitor out.
const accessKey = (deps: AppDeps) => ({ dataDir: deps.config.dataDir, file: "portal-access.key" });
const subjectOf = (portal: PortalRow) => `${portal.id}\n${portal.password_hash}`;

function hasAccess(deps: AppDeps, portal: PortalRow, header?: string) {
  if (portal.password_hash === null) return true;
  return validAccessToken(accessKey(deps), subjectOf(portal), header, deps.clock.now());
}

/** What each request of the page has in hand: the slug, the access header, the caller. */
export interface PortalRequest {
  slug: string;
  access?: string;
  address: string;
  origin: string;
}

function resolve(db: Db, slug: string) {
  const portal = /^[a-z0-9-]{1,64}$/.test(slug) ? portalBySlug(db, slug) : undefined;
  if (!portal) throw notFound("Portal", { reason: "unknown_portal" });
  return portal;
}

function open(deps: AppDeps, req: PortalRequest) {
  const portal = resolve(deps.db, req.slug);
  requireOpenPortal(portal, deps.clock.now());
  if (!hasAccess(deps, portal, req.access))
    throw new ApiError(403, "forbidden", "This portal needs its password", {
      reason: "password_required",
    });
  return portal;
}

export function openPortal(deps: AppDeps, req: PortalRequest): PublicPortal {
  const portal = resolve(deps.db, req.slug);
  const now = deps.clock.now();
  return {
    title: portal.title,
    message: portal.message,
    workspaceName: getWorkspace(deps.db, portal.workspace_id)?.name ?? "",
    state: portalStateOf({ status: portal.status, expiresAt: portal.expires_at }, now),
    passwordRequired: !hasAccess(deps, portal, req.access),
    requireEmail: portal.require_email === 1,
    fields: JSON.parse(portal.fields),
    rules: rulesOf(portal),
    maxBytesPerUpload: portal.max_bytes_per_upload,
    spec: specOf(portal),
    expiresAt: portal.expires_at === null ? null : toIso(portal.expires_at),
    dueAt: portal.due_at === null ? null : toIso(portal.due_at),
  };
}

export async function unlockPortal(deps: AppDeps, req: PortalRequest, password: string) {
  const portal = resolve(deps.db, req.slug);
  const now = deps.clock.now();
  requireOpenPortal(portal, now);
  const hash = portal.password_hash;
  if (hash !== null) {
    // Wrong passwords: as for shares (docs/api-decisions.md, Shares and receipts, Password).
    const verdict = await tryPassword(
      deps,
      { kind: "portal", target: portal.id, address: req.address, password },
      () => passwordMatches(hash, password),
    );
    if (!verdict.ok) throw wrongPassword(verdict.triesBeforeDelay);
  }
  const expiresAt = now + PORTAL_ACCESS_TTL_SECONDS * 1000;
  return {
    accessToken: issueAccessToken(accessKey(deps), subjectOf(portal), expiresAt),
    expiresAt: toIso(expiresAt),
  };
}

const issue = (field: string, message: string, code: string) => ({ field, message, code });

/** The sender's details against the portal: email when required, every required field. */
function checkSender(portal: PortalRow, body: z.output<typeof startPortalUploadBodySchema>) {
  const issues: { field: string; message: string; code: string }[] = [];
  if (portal.require_email === 1 && !body.senderEmail)
    issues.push(issue("senderEmail", "This portal asks for your email address", "email_required"));
  const fields = JSON.parse(portal.fields) as PortalField[];
  const known = new Set(fields.map((f) => f.key));
  for (const f of fields)
    if (f.required && !body.fields[f.key])
      issues.push(issue(`fields.${f.key}`, `${f.label} is required`, "required"));
  for (const key of Object.keys(body.fields))
    if (!known.has(key))
      issues.push(issue(`fields.${key}`, "This portal has no such field", "unknown_field"));
  return issues;
}

/** Each file's relative path, and the rules: every refusal named before any byte is sent. */
function checkFiles(portal: PortalRow, files: { path: string; size: number }[]) {
  const rules = rulesOf(portal);
  const issues: { field: string; message: string; code: string }[] = [];
  const seen = new Set<string>();
  const normalized = files.map((f, i) => {
    const p = normalizeName(f.path);
    const problem = pathProblem(p);
    if (problem) throw pathRejected(`files.${i}.path`, `Path ${problem}`);
    if (seen.has(p)) issues.push(issue(`files.${i}.path`, `"${p}" is listed twice`, "duplicate"));
    seen.add(p);
    const refused = portalFileProblem(
      rules,
      portal.max_bytes_per_upload,
      { path: p, size: f.size },
      nameMatches,
    );
    if (refused) issues.push(issue(`files.${i}`, refused.message, refused.code));
    return { path: p, size: f.size };
  });
  // A file and a folder of one name cannot both land (`clip.mov` and `clip.mov/b.mov`).
  normalized.forEach((f, i) => {
    for (let up = parentOf(f.path); up !== ""; up = parentOf(up))
      if (seen.has(up)) {
        const message = `"${f.path}" is inside "${up}", which is a file of this upload`;
        issues.push(issue(`files.${i}.path`, message, "file_in_the_way"));
        return;
      }
  });
  const whole = portalUploadProblem(rules, portal.max_bytes_per_upload, normalized);
  if (whole) issues.push(issue("files", whole.message, whole.code));
  return { files: normalized, issues };
}

/**
 * Starts one upload: checks the sender and the files against the portal, then creates the
 * upload's folder name, a send transfer (client `portal`) with its totals declared (the node
 * holds the upload to them) and the upload's row, in one transaction.
 */
export function startUpload(
  deps: AppDeps,
  req: PortalRequest,
  body: z.output<typeof startPortalUploadBodySchema>,
): StartedPortalUpload {
  const portal = open(deps, req);
  const checked = checkFiles(portal, body.files);
  const issues = [...checkSender(portal, body), ...checked.issues];
  if (issues.length > 0) throw validationFailed(issues);
  const now = deps.clock.now();
  const uploadId = newId();
  const folder = joinPath(
    portal.target_path,
    uploadFolderName(now, body.senderName ?? body.senderEmail ?? null, uploadId.slice(-6)),
  );
  // Each file's workspace path, in the upload's folder, must be one the node can take.
  for (const [i, f] of checked.files.entries()) {
    const problem = pathProblem(joinPath(folder, f.path));
    if (problem) throw pathRejected(`files.${i}.path`, `Path ${problem}`);
  }
  const totalBytes = checked.files.reduce((n, f) => n + f.size, 0);
  return deps.db
    .transaction((): StartedPortalUpload => {
      const created = startTransfer(
        deps,
        { workspaceId: portal.workspace_id, keyId: null, memberId: null, origin: req.origin },
        {
          direction: "send",
          client: "portal",
          portalId: portal.id,
          destinationRoot: folder,
          // Each file is a path item: the node takes exactly these paths, nothing else under them.
          paths: checked.files.map((f) => ({ source: f.path, destination: f.path })),
          fileCount: checked.files.length,
          totalBytes,
        },
      );
      insertUpload(deps.db, {
        id: uploadId,
        portal_id: portal.id,
        workspace_id: portal.workspace_id,
        transfer_id: created.transferId,
        sender_email: body.senderEmail ?? null,
        sender_name: body.senderName ?? null,
        message: body.message ?? null,
        fields: JSON.stringify(body.fields),
        folder_path: folder,
        file_count: checked.files.length,
        bytes_total: totalBytes,
        spec_status: portal.spec === null ? "not_required" : "checking",
        created_at: now,
      });
      return { uploadId, transferId: created.transferId, transferSpec: created.transferSpec };
    })
    .immediate();
}

/**
 * The upload of this portal that the bearer's transfer token belongs to. The token is matched by
 * its hash, whatever the transfer's state: a sender asking again for a confirmation whose first
 * answer was lost holds a token whose transfer has completed.
 */
function uploadOfToken(deps: AppDeps, req: PortalRequest, uploadId: string, token?: string) {
  const portal = resolve(deps.db, req.slug);
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
        return confirmationOf(portal, upload, files(), workspaceName, upload.completed_at!);
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
      return landed(deps, portal, upload, files(), workspaceName);
    })
    .immediate();
}

type CommittedFile = ReturnType<typeof committedFiles>[number];

const referenceOf = (uploadId: string) => uploadId.slice(-8).toUpperCase();

function confirmationOf(
  portal: PortalRow,
  upload: UploadRow,
  files: CommittedFile[],
  workspaceName: string,
  completedAt: number,
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
    completedAt: toIso(completedAt),
    senderEmail: upload.sender_email,
  };
}

/** Everything that follows an upload landing, in the caller's transaction. */
function landed(
  deps: AppDeps,
  portal: PortalRow,
  upload: UploadRow,
  files: CommittedFile[],
  workspaceName: string,
): PortalConfirmation {
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
  if (portal.spec !== null)
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
        ].join("\n"),
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
  return confirmationOf(portal, upload, files, workspaceName, now);
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
