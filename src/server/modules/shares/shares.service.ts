import type { z } from "zod";
import type { listSharesQuerySchema, Share, ShareRecipient, SharesPage } from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { notFound } from "@/server/lib/api-error";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { getMember, type MemberRow } from "@/server/modules/members/members.repository";
import { linkUrl } from "./share-access";
import {
  listShareRows,
  type RecipientRow,
  recipientsOf,
  type ShareFilter,
  type ShareRow,
  shareById,
  statusOfRow,
} from "./shares.repository";

/*
 * A share as the API shows it, and the reads. The other jobs each have a file: create, lifecycle
 * (extend, revoke, expire, bulk), comments, share-mail (the recipients' mail, resend), receipts.
 */

export const DAY_MS = 86_400_000;

/** The address links are built on: PUBLIC_URL, else the request's origin. */
export const linkBase = (deps: AppDeps, origin: string) => deps.config.publicUrl ?? origin;

export const toRecipient = (r: RecipientRow): ShareRecipient => ({
  id: r.id,
  email: r.email,
  sentAt: toIsoOrNull(r.sent_at),
  views: r.views,
  firstViewedAt: toIsoOrNull(r.first_viewed_at),
  lastViewedAt: toIsoOrNull(r.last_viewed_at),
  downloads: r.downloads,
  lastDownloadAt: toIsoOrNull(r.last_download_at),
  filesDownloaded: r.files_downloaded,
});

/** Who made a share, as a Share names them. */
export type ShareCreator = Pick<MemberRow, "id" | "name" | "email">;

/** A share row as the API shows it, from what either engine read beside it. */
export function shareView(
  row: ShareRow,
  r: { base: string; now: number; recipients: RecipientRow[]; member: ShareCreator | undefined },
): Share {
  const { member } = r;
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    status: statusOfRow(row, r.now),
    url: row.open_link ? linkUrl(r.base, row.link_token) : null,
    items: JSON.parse(row.items),
    fileCount: row.file_count,
    totalBytes: row.total_bytes,
    expiresAt: toIso(row.expires_at),
    maxDownloads: row.max_downloads,
    downloadCount: row.download_count,
    viewCount: row.view_count,
    passwordProtected: row.password_hash !== null,
    recipients: r.recipients.map(toRecipient),
    commentCount: row.comment_count,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    expiredAt: toIsoOrNull(row.expired_at),
    createdBy: member ? { id: member.id, name: member.name, email: member.email } : null,
    verdict: row.verdict,
  };
}

export const toShare = (deps: AppDeps, row: ShareRow, base: string): Share =>
  shareView(row, {
    base,
    now: deps.clock.now(),
    recipients: recipientsOf(deps.db, row.id),
    member: row.member_id ? getMember(deps.db, row.member_id) : undefined,
  });

export function requireShare(deps: AppDeps, workspaceId: string, id: string) {
  const row = shareById(deps.db, workspaceId, id);
  if (!row) throw notFound(`Share ${id}`, { shareId: id });
  return row;
}

export const getShare = (deps: AppDeps, caller: Caller, id: string) =>
  toShare(deps, requireShare(deps, caller.workspaceId, id), linkBase(deps, caller.origin));

/** The list's filter from its query, at `now`. */
export function shareFilter(q: z.output<typeof listSharesQuerySchema>, now: number): ShareFilter {
  return {
    status: q.status,
    expiringBefore:
      q.expiringWithinDays === undefined ? undefined : now + q.expiringWithinDays * DAY_MS,
    neverOpened: q.neverOpened,
    recipient: q.recipient,
    verdict: q.verdict,
    cursor: q.cursor,
    limit: q.limit + 1,
  };
}

/** A page from the rows read with one more than the page's limit. */
export function sharesPage<T extends { id: string }>(
  rows: T[],
  limit: number,
  view: (r: T) => Share,
): SharesPage {
  const page = rows.slice(0, limit);
  return { items: page.map(view), next: rows.length > limit ? page.at(-1)!.id : null };
}

export function listShares(
  deps: AppDeps,
  caller: Caller,
  q: z.output<typeof listSharesQuerySchema>,
): SharesPage {
  const now = deps.clock.now();
  const rows = listShareRows(deps.db, caller.workspaceId, now, shareFilter(q, now));
  const base = linkBase(deps, caller.origin);
  return sharesPage(rows, q.limit, (r) => toShare(deps, r, base));
}
