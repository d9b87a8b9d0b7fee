import type { AttentionSection } from "@/contract/attention-rules";
import type { Scope } from "@/contract/common";
import { DISABLE_AFTER_FAILURES } from "@/contract/rules";
import { type PgClient, type PgPool, withPgTransaction } from "@/server/db/pg/pool";
import type { Clock } from "@/server/lib/clock";
import {
  type AttentionRows,
  type AttentionWindows,
  attentionOf,
  attentionWindows,
  readableSections,
} from "./attention.service";
import type { AttentionStore } from "./attention-store";

/*
 * The statements of attention.repository.ts (which says why each reads what it does), in
 * PostgreSQL's dialect: no INDEXED BY (the planner picks the partial indexes itself), `IS NOT
 * DISTINCT FROM` for SQLite's `IS`, every joined table's key in a GROUP BY, and NULLS LAST where
 * SQLite sorts a NULL below every value.
 */

const UPLOADS = `
  SELECT u.id, u.portal_id, p.title AS portal_title, u.sender_email, u.sender_name, u.status,
    u.spec_status, u.file_count, coalesce(u.completed_at, u.created_at) AS received_at,
    count(*) OVER () AS total
  FROM portal_uploads u JOIN portals p ON p.id = u.portal_id
  WHERE u.workspace_id = $1 AND u.status IN ('received', 'pending')
  ORDER BY u.id DESC LIMIT $2`;

const FAILED_DOWNLOADS = `
  SELECT d.id, d.share_id, s.title AS share_title, r.email AS recipient,
    count(*) AS failed_files, d.completed_at, count(*) OVER () AS total
  FROM share_downloads d
  JOIN shares s ON s.id = d.share_id
  JOIN share_download_files df ON df.download_id = d.id AND df.matched = 0
  LEFT JOIN share_recipients r ON r.id = d.recipient_id
  WHERE d.completed_at IS NOT NULL AND d.unverified_count > 0 AND s.workspace_id = $1
    AND df.reported_sha256 IS NOT NULL
    AND NOT EXISTS (
      SELECT 1 FROM share_download_files ok
      JOIN share_downloads later ON later.id = ok.download_id
      WHERE ok.share_id = df.share_id AND ok.file_idx = df.file_idx AND ok.matched = 1
        AND later.recipient_id IS NOT DISTINCT FROM d.recipient_id
        AND later.completed_at IS NOT NULL
        AND (later.completed_at > d.completed_at
          OR (later.completed_at = d.completed_at AND later.id > d.id)))
  GROUP BY d.id, s.id, r.id
  ORDER BY d.completed_at DESC, d.id DESC LIMIT $2`;

const EXPIRING_SHARES = `
  SELECT s.id, s.title, s.expires_at,
    (SELECT count(*) FROM share_recipients r WHERE r.share_id = s.id) AS recipients,
    count(*) OVER () AS total
  FROM shares s
  WHERE s.workspace_id = $1 AND s.revoked_at IS NULL AND s.expires_at > $3 AND s.expires_at <= $4
    AND s.view_count = 0 AND s.download_count = 0
  ORDER BY s.expires_at, s.id LIMIT $2`;

const DISABLED_ENDPOINTS = `
  SELECT id, url, description, failure_count, last_delivery_at, count(*) OVER () AS total
  FROM webhook_endpoints
  WHERE workspace_id = $1 AND kind = 'webhook' AND status = 'disabled' AND failure_count >= $3
  ORDER BY last_delivery_at DESC NULLS LAST, id DESC LIMIT $2`;

const FAILED_JOBS = `
  SELECT j.*, count(*) OVER () AS total FROM (
    SELECT id, kind, 'failed' AS status, NULL::bigint AS failed_items, error, finished_at
    FROM file_operations
    WHERE workspace_id = $1 AND status = 'failed' AND finished_at >= $3
    UNION ALL
    SELECT id, action AS kind, status, failed AS failed_items, error, finished_at
    FROM bulk_jobs
    WHERE workspace_id = $1 AND (status = 'failed' OR (status = 'completed' AND failed > 0))
      AND finished_at >= $3
  ) j ORDER BY j.finished_at DESC, j.id DESC LIMIT $2`;

/** Each section's statement and its parameters after the workspace and the limit. */
const statements: {
  [K in AttentionSection]: [sql: string, extra: (w: AttentionWindows) => unknown[]];
} = {
  uploads: [UPLOADS, () => []],
  failedDownloads: [FAILED_DOWNLOADS, () => []],
  expiringShares: [EXPIRING_SHARES, (w) => [w.expiring.now, w.expiring.until]],
  disabledEndpoints: [DISABLED_ENDPOINTS, () => [DISABLE_AFTER_FAILURES]],
  failedJobs: [FAILED_JOBS, (w) => [w.failedSince]],
};

/**
 * The summary on PostgreSQL: its sections read in one REPEATABLE READ snapshot (READ COMMITTED
 * would give each statement its own), so the sections and the total agree, as in SQLite's
 * one read transaction.
 */
export class PgAttentionStore implements AttentionStore {
  constructor(
    private readonly pool: PgPool,
    private readonly clock: Clock,
  ) {}

  read(workspaceId: string, scopes: readonly Scope[], limit: number) {
    const w = attentionWindows(this.clock.now(), limit);
    return withPgTransaction(
      this.pool,
      async (c: PgClient) => {
        const rows: Partial<AttentionRows> = {};
        for (const name of readableSections(scopes)) {
          const [sql, extra] = statements[name];
          const found = await c.query(sql, [workspaceId, limit, ...extra(w)]);
          Object.assign(rows, { [name]: found.rows });
        }
        return attentionOf(rows);
      },
      { isolation: "repeatable read" },
    );
  }
}
