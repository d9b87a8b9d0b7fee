import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/*
 * The needs-attention summary reads other modules' tables and owns none: it is a view across
 * areas (portals, shares, webhooks, jobs), so every query here reads another module's rows, and
 * each says why beside it. Each section is one statement: `count(*) OVER ()` gives the section's
 * total beside its first `limit` rows, so a poll every few seconds costs five indexed reads.
 */

/** A section's rows, each carrying the count of every row before the limit (0 when none). */
export type Counted<T> = T & { total: number };
export const totalOf = (rows: { total: number }[]) => rows[0]?.total ?? 0;

export interface UploadRow {
  id: string;
  portal_id: string;
  portal_title: string;
  sender_email: string | null;
  sender_name: string | null;
  status: "received" | "pending";
  spec_status: "not_required" | "checking" | "passed" | "failed";
  file_count: number | null;
  received_at: number;
}

/**
 * Portal uploads awaiting review (received or pending), newest first as the portals module's
 * review queue lists the same rows (so what just arrived is never below the first entries), and the portal's title names where each came in. Uses
 * `portal_uploads_status` (workspace, status, id).
 */
export const awaitingUploads = (db: Db, workspaceId: string, limit: number) =>
  stmt<[string, number], Counted<UploadRow>>(
    db,
    `SELECT u.id, u.portal_id, p.title AS portal_title, u.sender_email, u.sender_name, u.status,
       u.spec_status, u.file_count, coalesce(u.completed_at, u.created_at) AS received_at,
       count(*) OVER () AS total
     FROM portal_uploads u JOIN portals p ON p.id = u.portal_id
     WHERE u.workspace_id = ? AND u.status IN ('received', 'pending')
     ORDER BY u.id DESC LIMIT ?`,
  ).all(workspaceId, limit);

export interface FailedDownloadRow {
  id: string;
  share_id: string;
  share_title: string;
  recipient: string | null;
  failed_files: number;
  completed_at: number;
}

/**
 * Completed share downloads with a file whose reported SHA-256 differed from the share's (a
 * file not hashed at all is unverified, not failed), less the files a later completed download
 * by the same recipient matched (the open link, recipient NULL, counts as one recipient: `IS`).
 * Reads the shares module's download log, as its receipt does. The scan starts from the partial
 * index `share_downloads_failed` (only downloads with an unmatched file, a small set; CROSS JOIN
 * keeps SQLite from starting at every share of the workspace instead) and the share's row keeps
 * other workspaces' out.
 */
export const failedDownloads = (db: Db, workspaceId: string, limit: number) =>
  stmt<[string, number], Counted<FailedDownloadRow>>(
    db,
    `SELECT d.id, d.share_id, s.title AS share_title, r.email AS recipient,
       count(*) AS failed_files, d.completed_at, count(*) OVER () AS total
     FROM share_downloads d INDEXED BY share_downloads_failed
     CROSS JOIN shares s ON s.id = d.share_id
     JOIN share_download_files df INDEXED BY share_download_files_unmatched
       ON df.download_id = d.id AND df.matched = 0
     LEFT JOIN share_recipients r ON r.id = d.recipient_id
     WHERE d.completed_at IS NOT NULL AND d.unverified_count > 0 AND s.workspace_id = ?
       AND df.reported_sha256 IS NOT NULL
       AND NOT EXISTS (
         SELECT 1 FROM share_download_files ok INDEXED BY share_download_files_file
         JOIN share_downloads later ON later.id = ok.download_id
         WHERE ok.share_id = df.share_id AND ok.file_idx = df.file_idx AND ok.matched = 1
           AND later.recipient_id IS d.recipient_id AND later.completed_at IS NOT NULL
           AND (later.completed_at > d.completed_at
             OR (later.completed_at = d.completed_at AND later.id > d.id)))
     GROUP BY d.id
     ORDER BY d.completed_at DESC, d.id DESC LIMIT ?`,
  ).all(workspaceId, limit);

export interface ExpiringShareRow {
  id: string;
  title: string;
  expires_at: number;
  recipients: number;
}

/**
 * Live shares expiring in (now, until] that nobody opened (no view, no download: the shares
 * list's "never opened"), soonest first. Reads the shares module's rows through its
 * `shares_expiry` index (workspace, expiry, not revoked).
 */
export const expiringUnopenedShares = (
  db: Db,
  workspaceId: string,
  window: { now: number; until: number },
  limit: number,
) =>
  stmt<[string, number, number, number], Counted<ExpiringShareRow>>(
    db,
    `SELECT s.id, s.title, s.expires_at,
       (SELECT count(*) FROM share_recipients r WHERE r.share_id = s.id) AS recipients,
       count(*) OVER () AS total
     FROM shares s
     WHERE s.workspace_id = ? AND s.revoked_at IS NULL AND s.expires_at > ? AND s.expires_at <= ?
       AND s.view_count = 0 AND s.download_count = 0
     ORDER BY s.expires_at, s.id LIMIT ?`,
  ).all(workspaceId, window.now, window.until, limit);

export interface DisabledEndpointRow {
  id: string;
  url: string;
  description: string | null;
  failure_count: number;
  last_delivery_at: number | null;
}

/**
 * Webhook endpoints the dispatcher disabled. The webhooks module keeps no reason, but it
 * disables an endpoint only once its consecutive failures reach the threshold, and a member's
 * PATCH to `disabled` leaves the count below it, so the count tells the two apart. REST hooks
 * are left out: a platform manages its own subscriptions. Uses `webhook_endpoints_workspace`.
 */
export const disabledEndpoints = (db: Db, workspaceId: string, threshold: number, limit: number) =>
  stmt<[string, number, number], Counted<DisabledEndpointRow>>(
    db,
    `SELECT id, url, description, failure_count, last_delivery_at, count(*) OVER () AS total
     FROM webhook_endpoints
     WHERE workspace_id = ? AND kind = 'webhook' AND status = 'disabled' AND failure_count >= ?
     ORDER BY last_delivery_at DESC, id DESC LIMIT ?`,
  ).all(workspaceId, threshold, limit);

export interface FailedJobRow {
  id: string;
  kind: "move" | "copy" | "trash" | "delete" | "restore" | "purge";
  status: "failed" | "completed";
  failed_items: number | null;
  error: string | null;
  finished_at: number;
}

/**
 * The job centre's failures since `since`: move and copy jobs that failed (the operations
 * module's rows) and bulk jobs that failed or ended with failed items (the bulk module's),
 * newest first. Jobs have no dismissal, so the window is what ends an entry. Each reads a
 * partial index of only such jobs (migration 0015).
 */
export const failedJobs = (db: Db, workspaceId: string, since: number, limit: number) =>
  stmt<[string, number, string, number, number], Counted<FailedJobRow>>(
    db,
    `SELECT j.*, count(*) OVER () AS total FROM (
       SELECT id, kind, 'failed' AS status, NULL AS failed_items, error, finished_at
       FROM file_operations INDEXED BY file_operations_failed
       WHERE workspace_id = ? AND status = 'failed' AND finished_at >= ?
       UNION ALL
       SELECT id, action AS kind, status, failed AS failed_items, error, finished_at
       FROM bulk_jobs INDEXED BY bulk_jobs_failed
       WHERE workspace_id = ? AND (status = 'failed' OR (status = 'completed' AND failed > 0))
         AND finished_at >= ?
     ) j ORDER BY j.finished_at DESC, j.id DESC LIMIT ?`,
  ).all(workspaceId, since, workspaceId, since, limit);
