import type { Attention } from "@/contract/attention";
import {
  type AttentionSection,
  attentionSectionScopes,
  EXPIRING_WITHIN_HOURS,
  FAILED_JOBS_DAYS,
} from "@/contract/attention-rules";
import type { Scope } from "@/contract/common";
import { DISABLE_AFTER_FAILURES } from "@/contract/rules";
import type { AppDeps } from "@/server/deps";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import {
  awaitingUploads,
  disabledEndpoints,
  expiringUnopenedShares,
  failedDownloads,
  failedJobs,
  totalOf,
} from "./attention.repository";

const HOUR = 3_600_000;

const section = <R extends { total: number }, T>(rows: R[], view: (row: R) => T) => ({
  total: totalOf(rows),
  items: rows.map(view),
});

/** Each section's reading: the rows that need attention, as the contract shows them. */
const readers = {
  uploads: (deps: AppDeps, ws: string, limit: number) =>
    section(awaitingUploads(deps.db, ws, limit), (u) => ({
      id: u.id,
      portalId: u.portal_id,
      portalTitle: u.portal_title,
      senderEmail: u.sender_email,
      senderName: u.sender_name,
      status: u.status,
      specStatus: u.spec_status,
      fileCount: u.file_count,
      receivedAt: toIso(u.received_at),
    })),
  failedDownloads: (deps: AppDeps, ws: string, limit: number) =>
    section(failedDownloads(deps.db, ws, limit), (d) => ({
      downloadId: d.id,
      shareId: d.share_id,
      shareTitle: d.share_title,
      recipient: d.recipient,
      failedFiles: d.failed_files,
      completedAt: toIso(d.completed_at),
    })),
  expiringShares: (deps: AppDeps, ws: string, limit: number) => {
    const now = deps.clock.now();
    const window = { now, until: now + EXPIRING_WITHIN_HOURS * HOUR };
    return section(expiringUnopenedShares(deps.db, ws, window, limit), (s) => ({
      shareId: s.id,
      title: s.title,
      expiresAt: toIso(s.expires_at),
      recipients: s.recipients,
    }));
  },
  disabledEndpoints: (deps: AppDeps, ws: string, limit: number) =>
    section(disabledEndpoints(deps.db, ws, DISABLE_AFTER_FAILURES, limit), (e) => ({
      webhookId: e.id,
      url: e.url,
      description: e.description,
      failureCount: e.failure_count,
      lastDeliveryAt: toIsoOrNull(e.last_delivery_at),
    })),
  failedJobs: (deps: AppDeps, ws: string, limit: number) => {
    const since = deps.clock.now() - FAILED_JOBS_DAYS * 24 * HOUR;
    return section(failedJobs(deps.db, ws, since, limit), (j) => ({
      jobId: j.id,
      kind: j.kind,
      status: j.status,
      failedItems: j.failed_items,
      error: j.error,
      finishedAt: toIso(j.finished_at),
    }));
  },
} satisfies {
  [K in AttentionSection]: (deps: AppDeps, ws: string, limit: number) => NonNullable<Attention[K]>;
};

/**
 * What needs a member across the workspace: each section the key's scopes may read (the others
 * are left out), with its total and first `limit` entries. Read in one transaction, so the
 * sections and the total agree.
 */
export function buildAttention(
  deps: AppDeps,
  workspaceId: string,
  scopes: readonly Scope[],
  limit: number,
): Attention {
  return deps.db.transaction(() => {
    const out: Attention = { total: 0 };
    for (const name of Object.keys(readers) as AttentionSection[]) {
      if (!attentionSectionScopes[name].some((s) => scopes.includes(s))) continue;
      const found = readers[name](deps, workspaceId, limit);
      Object.assign(out, { [name]: found });
      out.total += found.total;
    }
    return out;
  })();
}
