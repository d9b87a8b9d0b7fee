import type { Attention } from "@/contract/attention";
import {
  type AttentionSection,
  attentionSectionScopes,
  attentionSections,
  EXPIRING_WITHIN_HOURS,
  FAILED_JOBS_DAYS,
} from "@/contract/attention-rules";
import type { Scope } from "@/contract/common";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import {
  type Counted,
  type DisabledEndpointRow,
  type ExpiringShareRow,
  type FailedDownloadRow,
  type FailedJobRow,
  totalOf,
  type UploadRow,
} from "./attention.repository";

const HOUR = 3_600_000;

/** Each section's rows, as either engine reads them (attention.repository.ts says which). */
export interface AttentionRows {
  uploads: Counted<UploadRow>[];
  failedDownloads: Counted<FailedDownloadRow>[];
  expiringShares: Counted<ExpiringShareRow>[];
  disabledEndpoints: Counted<DisabledEndpointRow>[];
  failedJobs: Counted<FailedJobRow>[];
}

/** What one reading looks at: the time-bound sections' windows, from now. */
export interface AttentionWindows {
  limit: number;
  expiring: { now: number; until: number };
  failedSince: number;
}

export const attentionWindows = (now: number, limit: number): AttentionWindows => ({
  limit,
  expiring: { now, until: now + EXPIRING_WITHIN_HOURS * HOUR },
  failedSince: now - FAILED_JOBS_DAYS * 24 * HOUR,
});

/** The sections a key's scopes may read, in the answer's order. */
export const readableSections = (scopes: readonly Scope[]) =>
  attentionSections.filter((name) => attentionSectionScopes[name].some((s) => scopes.includes(s)));

const section = <R extends { total: number }, T>(rows: R[], view: (row: R) => T) => ({
  total: totalOf(rows),
  items: rows.map(view),
});

/** Each section's rows as the contract shows them. */
const views = {
  uploads: (rows: AttentionRows["uploads"]) =>
    section(rows, (u) => ({
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
  failedDownloads: (rows: AttentionRows["failedDownloads"]) =>
    section(rows, (d) => ({
      downloadId: d.id,
      shareId: d.share_id,
      shareTitle: d.share_title,
      recipient: d.recipient,
      failedFiles: d.failed_files,
      completedAt: toIso(d.completed_at),
    })),
  expiringShares: (rows: AttentionRows["expiringShares"]) =>
    section(rows, (s) => ({
      shareId: s.id,
      title: s.title,
      expiresAt: toIso(s.expires_at),
      recipients: s.recipients,
    })),
  disabledEndpoints: (rows: AttentionRows["disabledEndpoints"]) =>
    section(rows, (e) => ({
      webhookId: e.id,
      url: e.url,
      description: e.description,
      failureCount: e.failure_count,
      lastDeliveryAt: toIsoOrNull(e.last_delivery_at),
    })),
  failedJobs: (rows: AttentionRows["failedJobs"]) =>
    section(rows, (j) => ({
      jobId: j.id,
      kind: j.kind,
      status: j.status,
      failedItems: j.failed_items,
      error: j.error,
      finishedAt: toIso(j.finished_at),
    })),
} satisfies {
  [K in AttentionSection]: (rows: AttentionRows[K]) => NonNullable<Attention[K]>;
};

/**
 * What needs a member across the workspace, from the sections an engine read (those the key's
 * scopes may read; the others are left out): each with its total and first entries.
 */
export function attentionOf(read: Partial<AttentionRows>): Attention {
  const out: Attention = { total: 0 };
  for (const name of attentionSections) {
    const rows = read[name];
    if (!rows) continue;
    const found = (views[name] as (r: typeof rows) => { total: number })(rows);
    Object.assign(out, { [name]: found });
    out.total += found.total;
  }
  return out;
}
