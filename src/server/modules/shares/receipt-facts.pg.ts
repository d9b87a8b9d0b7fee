import type { PgClient } from "@/server/db/pg/pool";
import { notFound } from "@/server/lib/api-error";
import type { OutboxRow } from "@/server/modules/mail/outbox.repository";
import type { DownloadRow } from "./activity.repository";
import type { DeliveryRow } from "./delivery.repository";
import { DOWNLOAD_FILES_LISTED, type MatrixFacts, type ReceiptFacts } from "./receipts.service";
import type { RecipientRow, ShareFileRow, ShareRow } from "./shares.repository";
import type { ShareCreator } from "./shares.service";

/*
 * What a receipt reads, on PostgreSQL: the statements of activity.repository.ts,
 * delivery.repository.ts and shares.repository.ts, in the caller's transaction (REPEATABLE
 * READ, so a download recorded meanwhile is in all of the facts or in none).
 */

async function all<T extends object>(c: PgClient, sql: string, values: unknown[]) {
  return (await c.query<T>(sql, values)).rows;
}

/** The verification report's facts; 404 `not_found` for a share not in the workspace. */
export async function matrixFactsPg(
  c: PgClient,
  workspaceId: string,
  shareId: string,
): Promise<MatrixFacts> {
  const [row] = await all<ShareRow>(c, "SELECT * FROM shares WHERE workspace_id = $1 AND id = $2", [
    workspaceId,
    shareId,
  ]);
  if (!row) throw notFound(`Share ${shareId}`, { shareId });
  const of = <T extends object>(sql: string) => all<T>(c, sql, [shareId]);
  return {
    row,
    recipients: await of<RecipientRow>(
      "SELECT * FROM share_recipients WHERE share_id = $1 ORDER BY created_at, email",
    ),
    downloads: await of<DownloadRow>(
      "SELECT * FROM share_downloads WHERE share_id = $1 ORDER BY started_at, id",
    ),
    deliveries: await of<DeliveryRow>("SELECT * FROM share_deliveries WHERE share_id = $1"),
    files: await of<ShareFileRow>("SELECT * FROM share_files WHERE share_id = $1 ORDER BY idx"),
  };
}

export async function receiptFactsPg(
  c: PgClient,
  workspaceId: string,
  shareId: string,
): Promise<ReceiptFacts> {
  const facts = await matrixFactsPg(c, workspaceId, shareId);
  const of = <T extends object>(sql: string, more: unknown[] = []) =>
    all<T>(c, sql, [shareId, ...more]);
  const [workspace] = await all<{ name: string }>(c, "SELECT name FROM workspaces WHERE id = $1", [
    workspaceId,
  ]);
  const [creator] = await all<ShareCreator>(
    c,
    "SELECT id, name, email FROM members WHERE id = $1",
    [facts.row.member_id],
  );
  return {
    ...facts,
    workspaceName: workspace?.name ?? "",
    creator,
    views: await of(
      "SELECT recipient_id, address, viewed_at FROM share_views WHERE share_id = $1 ORDER BY viewed_at, id",
    ),
    failures: await of(
      "SELECT recipient_id, address, failed_at FROM share_password_failures WHERE share_id = $1 ORDER BY failed_at, id",
    ),
    changes: await of("SELECT * FROM share_changes WHERE share_id = $1 ORDER BY id"),
    messages: await of<OutboxRow>("SELECT * FROM mail_outbox WHERE share_id = $1 ORDER BY id"),
    comments: await of("SELECT * FROM share_comments WHERE share_id = $1 ORDER BY id"),
    listedFiles: await of(
      `SELECT df.download_id, f.path, df.reported_sha256, df.matched
       FROM share_downloads d
       JOIN share_download_files df ON df.download_id = d.id AND df.idx < $2
       JOIN share_files f ON f.share_id = d.share_id AND f.idx = df.file_idx
       WHERE d.share_id = $1 ORDER BY df.download_id, df.idx`,
      [DOWNLOAD_FILES_LISTED],
    ),
    unmatchedFiles: await of(
      `SELECT df.download_id, f.path, f.sha256, df.reported_sha256
       FROM share_downloads d
       JOIN share_download_files df ON df.download_id = d.id AND df.matched = 0
       JOIN share_files f ON f.share_id = d.share_id AND f.idx = df.file_idx
       WHERE d.share_id = $1 AND d.unverified_count > 0 ORDER BY df.download_id, df.idx`,
    ),
  };
}
