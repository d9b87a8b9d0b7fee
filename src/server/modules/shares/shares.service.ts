import type { z } from "zod";
import type { EventData } from "@/contract/events";
import type { OutboxMessage, outboxQuerySchema } from "@/contract/mail";
import { baseName } from "@/contract/rules";
import {
  type BulkSharesResult,
  type bulkSharesBodySchema,
  type CreatedShare,
  type createCommentBodySchema,
  type createShareBodySchema,
  type listSharesQuerySchema,
  SHARE_EXPIRES_DAYS_MAX,
  SHARE_FILES_MAX,
  type Share,
  type ShareComment,
  type SharesPage,
  type updateShareBodySchema,
} from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import { ApiError, notFound, validationFailed } from "@/server/lib/api-error";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { hashPassword } from "@/server/lib/passwords";
import { byPath } from "@/server/modules/files/files.repository";
import { collectBlobs } from "@/server/modules/files/trash.service";
import { getMember } from "@/server/modules/members/members.repository";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { queueShareMail, renderText } from "./mailer";
import { listMessages, messageById, type OutboxRow } from "./outbox.repository";
import { issuePersonalToken, linkUrl, newLinkToken } from "./share-access";
import {
  type CommentRow,
  commentById,
  commentsOf,
  holdBlobs,
  insertChange,
  insertComment,
  insertLink,
  insertRecipient,
  insertShare,
  listShareRows,
  liveFilesAt,
  markExpired,
  markRevoked,
  recipientsOf,
  type ShareRow,
  type SnapshotFileRow,
  shareById,
  shareRow,
  statusOfRow,
  updateLimits,
} from "./shares.repository";

/** Job kind that records a share's expiry at its time, once. */
export const EXPIRE_JOB = "shares.expire";
const DAY_MS = 86_400_000;

/** Who asks, and the address links are built on (PUBLIC_URL, else the request's origin). */
export interface Caller {
  workspaceId: string;
  memberId: string;
  keyId: string;
  origin: string;
}

export const linkBase = (deps: AppDeps, origin: string) => deps.config.publicUrl ?? origin;

export function toShare(deps: AppDeps, row: ShareRow, base: string): Share {
  const member = row.member_id ? getMember(deps.db, row.member_id) : undefined;
  return {
    id: row.id,
    title: row.title,
    message: row.message,
    status: statusOfRow(row, deps.clock.now()),
    url: linkUrl(base, row.link_token),
    items: JSON.parse(row.items),
    fileCount: row.file_count,
    totalBytes: row.total_bytes,
    expiresAt: toIso(row.expires_at),
    maxDownloads: row.max_downloads,
    downloadCount: row.download_count,
    viewCount: row.view_count,
    passwordProtected: row.password_hash !== null,
    recipients: recipientsOf(deps.db, row.id).map((r) => ({
      id: r.id,
      email: r.email,
      sentAt: toIsoOrNull(r.sent_at),
      views: r.views,
      firstViewedAt: toIsoOrNull(r.first_viewed_at),
      lastViewedAt: toIsoOrNull(r.last_viewed_at),
      downloads: r.downloads,
      lastDownloadAt: toIsoOrNull(r.last_download_at),
      filesDownloaded: r.files_downloaded,
    })),
    commentCount: row.comment_count,
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    revokedAt: toIsoOrNull(row.revoked_at),
    expiredAt: toIsoOrNull(row.expired_at),
    createdBy: member ? { id: member.id, name: member.name, email: member.email } : null,
  };
}

export function requireShare(deps: AppDeps, workspaceId: string, id: string) {
  const row = shareById(deps.db, workspaceId, id);
  if (!row) throw notFound(`Share ${id}`, { shareId: id });
  return row;
}

/**
 * The files the paths name, as they are now: each path must be live (404 with `details.path`);
 * a path inside another listed one is folded into it. At most SHARE_FILES_MAX files
 * (`too_many_files`), at least one (`no_files`), none stored with content protection
 * (`content_protected`: a recipient could not read it without the transfer's password).
 */
function snapshot(deps: AppDeps, workspaceId: string, paths: string[]) {
  const unique = [...new Set(paths)];
  const tops = unique.filter((p) => !unique.some((q) => q !== p && p.startsWith(`${q}/`)));
  const items: Share["items"] = [];
  const files: SnapshotFileRow[] = [];
  for (const p of tops) {
    const entry = byPath(deps.db, workspaceId, p);
    if (!entry) throw notFound(`"${p}"`, { path: p });
    const found = liveFilesAt(deps.db, workspaceId, p, SHARE_FILES_MAX - files.length + 1);
    if (files.length + found.length > SHARE_FILES_MAX)
      throw validationFailed(
        "paths",
        `A share holds at most ${SHARE_FILES_MAX} files`,
        "too_many_files",
        { issue: `more than ${SHARE_FILES_MAX} files`, details: { max: SHARE_FILES_MAX } },
      );
    const locked = found.find((f) => f.protection !== null);
    if (locked)
      throw validationFailed(
        "paths",
        `"${locked.path}" is stored with content protection`,
        "content_protected",
        { issue: "a file is stored with content protection", details: { path: locked.path } },
      );
    files.push(...found);
    items.push({
      path: p,
      type: entry.is_file ? "file" : "folder",
      sizeBytes: found.reduce((n, f) => n + f.size, 0),
      fileCount: found.length,
    });
  }
  if (files.length === 0)
    throw validationFailed("paths", "There is no file to share in these folders", "no_files");
  return { items, files };
}

type CreateInput = z.output<typeof createShareBodySchema>;

/**
 * Stores the share with its snapshot, its hold on the blobs, its recipients' personal links and
 * their mail, schedules its expiry and records `share.created`, all in one transaction. The
 * personal links are in this answer only (and in the mail).
 */
export async function createShare(
  deps: AppDeps,
  caller: Caller,
  body: CreateInput,
): Promise<CreatedShare> {
  const { db, clock } = deps;
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const base = linkBase(deps, caller.origin);
  const recipients = [...new Set(body.recipients)];
  return db
    .transaction((): CreatedShare => {
      const now = clock.now();
      const { items, files } = snapshot(deps, caller.workspaceId, body.paths);
      const id = newId();
      const row = {
        id,
        workspace_id: caller.workspaceId,
        member_id: caller.memberId,
        key_id: caller.keyId,
        title: body.title ?? baseName(items[0]!.path),
        message: body.message?.trim() || null,
        link_token: newLinkToken(),
        password_hash: passwordHash,
        expires_at: now + body.expiresInDays * DAY_MS,
        max_downloads: body.maxDownloads ?? null,
        file_count: files.length,
        total_bytes: files.reduce((n, f) => n + f.size, 0),
        items: JSON.stringify(items),
        created_at: now,
      };
      insertShare(db, row, files);
      holdBlobs(db, id, 1);
      const stored = shareById(db, caller.workspaceId, id)!;
      const workspaceName = getWorkspace(db, caller.workspaceId)?.name ?? "";
      const recipientLinks = recipients.map((email) => {
        const recipientId = newId();
        insertRecipient(db, { id: recipientId, share_id: id, email, created_at: now });
        const { token, hash } = issuePersonalToken();
        insertLink(db, hash, id, recipientId, now);
        const url = linkUrl(base, token);
        if (body.notify)
          queueShareMail(deps, stored, workspaceName, { id: recipientId, email }, url, now);
        return { email, url };
      });
      scheduleExpiry(deps, id, stored.expires_at);
      const data: EventData<"share.created"> = {
        shareId: id,
        title: stored.title,
        items: items.map((i) => ({
          path: i.path,
          sizeBytes: i.sizeBytes,
          type: i.type,
          fileCount: i.fileCount,
        })),
        expiresAt: toIso(stored.expires_at),
        recipients,
        fileCount: stored.file_count,
        totalBytes: stored.total_bytes,
        maxDownloads: stored.max_downloads,
        passwordProtected: passwordHash !== null,
      };
      deps.events.record(caller.workspaceId, "share.created", data);
      return { ...toShare(deps, stored, base), recipientLinks };
    })
    .immediate();
}

const scheduleExpiry = (deps: AppDeps, shareId: string, expiresAt: number) =>
  deps.jobs.enqueue(
    EXPIRE_JOB,
    { shareId, expiresAt },
    { runAt: expiresAt, uniqueKey: `${EXPIRE_JOB}:${shareId}:${expiresAt}` },
  );

export const getShare = (deps: AppDeps, workspaceId: string, id: string, origin: string) =>
  toShare(deps, requireShare(deps, workspaceId, id), linkBase(deps, origin));

export function listShares(
  deps: AppDeps,
  workspaceId: string,
  q: z.output<typeof listSharesQuerySchema>,
  origin: string,
): SharesPage {
  const now = deps.clock.now();
  const rows = listShareRows(deps.db, workspaceId, now, {
    status: q.status,
    expiringBefore:
      q.expiringWithinDays === undefined ? undefined : now + q.expiringWithinDays * DAY_MS,
    neverOpened: q.neverOpened,
    recipient: q.recipient,
    cursor: q.cursor,
    limit: q.limit + 1,
  });
  const page = rows.slice(0, q.limit);
  const base = linkBase(deps, origin);
  return {
    items: page.map((r) => toShare(deps, r, base)),
    next: rows.length > q.limit ? page.at(-1)!.id : null,
  };
}

/**
 * A new expiry (from now, or a time; in the future and at most 365 days ahead) and/or a new
 * download limit. An expired or exhausted share becomes active again; a revoked one is refused
 * (`revoked`). Records `share.extended` and a timeline entry; a new expiry gets its own job.
 */
export function updateShare(
  deps: AppDeps,
  workspaceId: string,
  id: string,
  body: z.output<typeof updateShareBodySchema>,
  origin: string,
): Share {
  const { db } = deps;
  return db
    .transaction((): Share => {
      const now = deps.clock.now();
      const row = requireShare(deps, workspaceId, id);
      if (row.revoked_at !== null)
        throw validationFailed("shareId", "A revoked share cannot be changed", "revoked");
      let expiresAt = row.expires_at;
      if (body.expiresInDays !== undefined) expiresAt = now + body.expiresInDays * DAY_MS;
      if (body.expiresAt !== undefined) {
        expiresAt = Date.parse(body.expiresAt);
        if (expiresAt <= now)
          throw validationFailed(
            "expiresAt",
            "The new expiry must be in the future",
            "in_the_past",
          );
        if (expiresAt > now + SHARE_EXPIRES_DAYS_MAX * DAY_MS)
          throw validationFailed(
            "expiresAt",
            `At most ${SHARE_EXPIRES_DAYS_MAX} days ahead`,
            "too_far",
          );
      }
      const maxDownloads = body.maxDownloads === undefined ? row.max_downloads : body.maxDownloads;
      updateLimits(db, id, { expires_at: expiresAt, max_downloads: maxDownloads, now });
      insertChange(db, {
        share_id: id,
        changed_at: now,
        expires_at: expiresAt,
        previous_expires_at: row.expires_at,
        max_downloads: maxDownloads,
        previous_max_downloads: row.max_downloads,
      });
      if (expiresAt !== row.expires_at) scheduleExpiry(deps, id, expiresAt);
      const data: EventData<"share.extended"> = {
        shareId: id,
        expiresAt: toIso(expiresAt),
        previousExpiresAt: toIso(row.expires_at),
        maxDownloads,
        previousMaxDownloads: row.max_downloads,
      };
      deps.events.record(workspaceId, "share.extended", data);
      return toShare(deps, shareById(db, workspaceId, id)!, linkBase(deps, origin));
    })
    .immediate();
}

/**
 * Revokes for good: links stop working, `share.revoked` is recorded once, and the share gives
 * back its hold on the blobs (the receipt keeps every checksum). Revoking again answers the
 * share unchanged.
 */
export function revokeShare(deps: AppDeps, workspaceId: string, id: string, origin: string): Share {
  if (markShareRevoked(deps, workspaceId, id)) collectBlobs(deps.db, deps.files.blobs);
  return getShare(deps, workspaceId, id, origin);
}

/**
 * The revocation itself, without collecting the blobs it released (true when it released
 * some), so a bulk revoke collects once for all its shares.
 */
function markShareRevoked(deps: AppDeps, workspaceId: string, id: string): boolean {
  const { db } = deps;
  return db
    .transaction(() => {
      requireShare(deps, workspaceId, id);
      if (!markRevoked(db, id, deps.clock.now())) return false;
      holdBlobs(db, id, -1);
      const data: EventData<"share.revoked"> = { shareId: id };
      deps.events.record(workspaceId, "share.revoked", data);
      return true;
    })
    .immediate();
}

/**
 * Extends or revokes the listed shares in one transaction, each exactly as its single operation
 * would (same event, same refusals). A share its single operation refuses is left as it was and
 * listed in `failed` with that refusal's code (the issue's code for a validation_failed, e.g.
 * `revoked`); the others are done.
 */
export function bulkShares(
  deps: AppDeps,
  workspaceId: string,
  body: z.output<typeof bulkSharesBodySchema>,
  origin: string,
): BulkSharesResult {
  const { db } = deps;
  const result: BulkSharesResult = { done: [], failed: [] };
  let released = false;
  db.transaction(() => {
    for (const id of new Set(body.shareIds)) {
      try {
        // Each single operation is a nested transaction (a savepoint): a refused one undoes only itself.
        if (body.action === "revoke")
          released = markShareRevoked(deps, workspaceId, id) || released;
        else
          updateShare(
            deps,
            workspaceId,
            id,
            { expiresInDays: body.expiresInDays, expiresAt: body.expiresAt },
            origin,
          );
        result.done.push(id);
      } catch (e) {
        if (!(e instanceof ApiError)) throw e;
        const issue = (e.details?.issues as { code: string }[] | undefined)?.[0];
        result.failed.push({ shareId: id, code: issue?.code ?? e.code, message: e.message });
      }
    }
  }).immediate();
  if (released) collectBlobs(db, deps.files.blobs);
  return result;
}

/** Called by the expiry job: records `share.expired` once for the expiry it was scheduled for. */
export function expireShare(deps: AppDeps, shareId: string, expiresAt: number) {
  deps.db
    .transaction(() => {
      const now = deps.clock.now();
      if (!markExpired(deps.db, shareId, expiresAt, now)) return;
      const row = shareRow(deps.db, shareId)!;
      const data: EventData<"share.expired"> = { shareId, expiredAt: toIso(expiresAt) };
      deps.events.record(row.workspace_id, "share.expired", data);
    })
    .immediate();
}

export const toComment = (c: CommentRow): ShareComment => ({
  id: c.id,
  shareId: c.share_id,
  parentId: c.parent_id,
  body: c.body,
  author: { kind: c.author_kind, name: c.author_name, email: c.author_email },
  createdAt: toIso(c.created_at),
});

export function listComments(
  deps: AppDeps,
  workspaceId: string,
  shareId: string,
  q: { after?: string; limit: number },
) {
  requireShare(deps, workspaceId, shareId);
  const rows = commentsOf(deps.db, shareId, q.after ?? "", q.limit + 1);
  const page = rows.slice(0, q.limit);
  return { items: page.map(toComment), next: rows.length > q.limit ? page.at(-1)!.id : null };
}

export interface CommentAuthor {
  kind: CommentRow["author_kind"];
  name: string | null;
  email: string | null;
}

/**
 * A comment, or a reply: threads are one level deep, so a reply to a reply joins the thread of
 * the comment it answers. An unknown `parentId` is `validation_failed` (`unknown_parent`).
 */
export function addComment(
  deps: AppDeps,
  share: ShareRow,
  author: CommentAuthor,
  body: z.output<typeof createCommentBodySchema>,
): ShareComment {
  return deps.db
    .transaction((): ShareComment => {
      let parentId: string | null = null;
      if (body.parentId !== undefined) {
        const parent = commentById(deps.db, share.id, body.parentId);
        if (!parent)
          throw validationFailed("parentId", "No such comment on this share", "unknown_parent");
        parentId = parent.parent_id ?? parent.id;
      }
      const row: CommentRow = {
        id: newId(),
        share_id: share.id,
        parent_id: parentId,
        body: body.body,
        author_kind: author.kind,
        author_name: author.name,
        author_email: author.email,
        created_at: deps.clock.now(),
      };
      insertComment(deps.db, row);
      return toComment(row);
    })
    .immediate();
}

/** A member comments through the API: the key's member is the author. */
export function addMemberComment(
  deps: AppDeps,
  caller: Pick<Caller, "workspaceId" | "memberId">,
  shareId: string,
  body: z.output<typeof createCommentBodySchema>,
) {
  const share = requireShare(deps, caller.workspaceId, shareId);
  const member = getMember(deps.db, caller.memberId);
  return addComment(
    deps,
    share,
    { kind: "member", name: member?.name ?? null, email: member?.email ?? null },
    body,
  );
}

export const toOutboxMessage = (m: OutboxRow): OutboxMessage => ({
  id: m.id,
  shareId: m.share_id,
  portalId: m.portal_id,
  channel: m.channel,
  to: m.to_address,
  subject: m.subject,
  text: renderText(m),
  link: m.link,
  status: m.status,
  attempts: m.attempts,
  error: m.error,
  createdAt: toIso(m.created_at),
  sentAt: toIsoOrNull(m.sent_at),
});

/**
 * Mails the link again to some or all recipients, each with a fresh personal link (their
 * earlier links keep working). Only an active share (`share_not_active`); every address must
 * be one of its recipients (`unknown_recipient`, `details.emails`).
 */
export function resendShare(
  deps: AppDeps,
  caller: Caller,
  shareId: string,
  emails: string[] | undefined,
): { messages: OutboxMessage[] } {
  const { db } = deps;
  return db
    .transaction(() => {
      const now = deps.clock.now();
      const share = requireShare(deps, caller.workspaceId, shareId);
      const status = statusOfRow(share, now);
      if (status !== "active")
        throw validationFailed(
          "shareId",
          `The share is ${status}: nothing to resend`,
          "share_not_active",
          { issue: `the share is ${status}`, details: { status } },
        );
      const all = recipientsOf(db, shareId);
      const wanted = emails ? new Set(emails) : null;
      const unknown = emails ? [...wanted!].filter((e) => !all.some((r) => r.email === e)) : [];
      if (unknown.length > 0)
        throw validationFailed(
          "recipients",
          `Not recipients of this share: ${unknown.join(", ")}`,
          "unknown_recipient",
          { issue: "not a recipient of this share", details: { emails: unknown } },
        );
      if (all.length === 0)
        throw validationFailed("recipients", "This share has no recipients", "no_recipients");
      const workspaceName = getWorkspace(db, caller.workspaceId)?.name ?? "";
      const base = linkBase(deps, caller.origin);
      const ids = all
        .filter((r) => !wanted || wanted.has(r.email))
        .map((r) => {
          const { token, hash } = issuePersonalToken();
          insertLink(db, hash, shareId, r.id, now);
          return queueShareMail(deps, share, workspaceName, r, linkUrl(base, token), now);
        });
      return { messages: ids.map((id) => toOutboxMessage(messageById(db, id)!)) };
    })
    .immediate();
}

export function listOutbox(
  deps: AppDeps,
  workspaceId: string,
  q: z.output<typeof outboxQuerySchema> & { area?: "shares" | "portals" },
) {
  const rows = listMessages(deps.db, workspaceId, { ...q, limit: q.limit + 1 });
  const page = rows.slice(0, q.limit);
  return { items: page.map(toOutboxMessage), next: rows.length > q.limit ? page.at(-1)!.id : null };
}
