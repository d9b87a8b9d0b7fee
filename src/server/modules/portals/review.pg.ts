import { baseName, joinPath, parentOf } from "@/contract/rules";
import type { PgClient } from "@/server/db/pg/pool";
import { byPath, ensureFolder } from "@/server/modules/files/tree.pg";
import { type OutgoingMessage, outboxEntry } from "@/server/modules/mail/mailer";
import { queueMailPg } from "@/server/modules/mail/outbox.pg";
import { cancelOperationPg, startMovePg } from "@/server/modules/operations/operations.pg";
import type {
  OperationItemRow,
  OperationRow,
} from "@/server/modules/operations/operations.repository";
import { alreadyIn, filesIn, placeTaken } from "./approval-move";
import type { PortalRow, UploadRow } from "./portals.repository";
import { noPortal } from "./portals.service";
import type { PgPortalsContext, Queryable } from "./portals-store.pg";
import { decisionMail, decisionToMail } from "./sender-status.service";

/*
 * What a decision writes besides the upload's own row, on PostgreSQL, in the decision's
 * transaction under the workspace's lock: approval-move.ts's moves and sender-status.service.ts's
 * mail, with the same rules (those files say why).
 */

/** upload-review.repository's setFolderPath. */
async function setFolderPathPg(
  c: PgClient,
  upload: UploadRow,
  folder: string,
  move: { from: string; jobId: string } | null,
) {
  await c.query(
    `UPDATE portal_uploads SET folder_path = $1, files_shown = $2, moved_from = $3, move_job_id = $4
     WHERE id = $5`,
    [folder, filesIn(upload, folder), move?.from ?? null, move?.jobId ?? null, upload.id],
  );
}

export async function moveApprovedPg(
  ctx: PgPortalsContext,
  c: PgClient,
  upload: UploadRow,
  approvedPath: string,
  now: number,
) {
  const ws = upload.workspace_id;
  if (alreadyIn(upload, approvedPath) || !(await byPath(c, ws, upload.folder_path))) return;
  await ensureFolder(c, ws, approvedPath, now);
  const jobId = await startMovePg(
    c,
    ctx.jobs,
    ws,
    { path: upload.folder_path, destination: approvedPath, onConflict: "keepBoth" },
    now,
  );
  const folder = joinPath(approvedPath, baseName(upload.folder_path));
  await setFolderPathPg(c, upload, folder, { from: upload.folder_path, jobId });
}

export async function moveBackPg(
  ctx: PgPortalsContext,
  c: PgClient,
  upload: UploadRow,
  now: number,
) {
  const from = upload.moved_from;
  if (from === null) return;
  const ws = upload.workspace_id;
  const job = upload.move_job_id
    ? (
        await c.query<OperationRow>(
          "SELECT * FROM file_operations WHERE id = $1 AND workspace_id = $2",
          [upload.move_job_id, ws],
        )
      ).rows[0]
    : undefined;
  if (job && (job.status === "queued" || job.status === "running"))
    await cancelOperationPg(c, job.id, now);
  const item = job
    ? (
        await c.query<OperationItemRow>(
          "SELECT * FROM file_operation_items WHERE operation_id = $1 ORDER BY idx LIMIT 1",
          [job.id],
        )
      ).rows[0]
    : undefined;
  const at = item?.status === "done" ? item.destination_path : null;
  let folder = from;
  if (at !== null && (await byPath(c, ws, at))) {
    folder = joinPath(parentOf(from), baseName(at));
    if (await byPath(c, ws, folder)) throw placeTaken(folder, upload, at);
    await ensureFolder(c, ws, parentOf(from), now);
    await startMovePg(c, ctx.jobs, ws, { path: at, destination: parentOf(from) }, now);
  }
  await setFolderPathPg(c, upload, folder, null);
}

export async function portalRowPg(c: Queryable, workspaceId: string, id: string) {
  const { rows } = await c.query<PortalRow>(
    "SELECT * FROM portals WHERE id = $1 AND workspace_id = $2",
    [id, workspaceId],
  );
  if (!rows[0]) throw noPortal(id);
  return rows[0];
}

export const workspaceNamePg = async (c: Queryable, id: string) =>
  (await c.query<{ name: string }>("SELECT name FROM workspaces WHERE id = $1", [id])).rows[0]
    ?.name ?? "";

/** queueMessage in the unit's transaction: the outbox row, and its mail job when SMTP is set. */
export const queueMessagePg = (
  ctx: PgPortalsContext,
  c: PgClient,
  m: OutgoingMessage,
  now: number,
) => queueMailPg(c, outboxEntry(m, now, ctx.config.smtpUrl), now);

/** tellSender: an earlier decision's mail not yet sent is withdrawn, this one's queued. */
export async function tellSenderPg(
  ctx: PgPortalsContext,
  c: PgClient,
  portal: PortalRow,
  upload: UploadRow,
  base: string,
  now: number,
) {
  if (upload.decision_mail_id)
    await c.query("DELETE FROM mail_outbox WHERE id = $1 AND status IN ('waiting', 'queued')", [
      upload.decision_mail_id,
    ]);
  const decision = decisionToMail(portal, upload);
  let mailId: string | null = null;
  if (decision) {
    const workspaceName = await workspaceNamePg(c, portal.workspace_id);
    const mail = decisionMail(ctx, portal, upload, base, { decision, workspaceName });
    mailId = await queueMessagePg(ctx, c, mail, now);
  }
  await c.query("UPDATE portal_uploads SET decision_mail_id = $1 WHERE id = $2", [
    mailId,
    upload.id,
  ]);
}
