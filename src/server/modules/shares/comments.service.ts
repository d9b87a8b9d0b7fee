import type { z } from "zod";
import type { MediaAnchor } from "@/contract/media";
import type { createCommentBodySchema, ShareComment } from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import type { Caller } from "@/server/http/caller";
import { validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { newId } from "@/server/lib/ids";
import { anchorColumns, anchorOf, checkAnchor, probedFacts } from "@/server/lib/media-anchor";
// The media module's probe of the content (duration, pages): a read of its table by its function.
import { probeOf } from "@/server/modules/media/renditions.repository";
import { getMember, type MemberRow } from "@/server/modules/members/members.repository";
import {
  type CommentRow,
  commentById,
  commentsOf,
  fileByPath,
  insertComment,
  type ShareFileRow,
  type ShareRow,
} from "./shares.repository";
import { requireShare } from "./shares.service";

/* A share's comment thread: members write through the API, link holders on the recipient page. */

export const toComment = (c: CommentRow): ShareComment => ({
  id: c.id,
  shareId: c.share_id,
  parentId: c.parent_id,
  body: c.body,
  author: { kind: c.author_kind, name: c.author_name, email: c.author_email },
  createdAt: toIso(c.created_at),
  anchor: anchorOf(c),
});

/** A page from the rows read with one more than the page's limit. */
export function commentsPage(rows: CommentRow[], limit: number) {
  const page = rows.slice(0, limit);
  return { items: page.map(toComment), next: rows.length > limit ? page.at(-1)!.id : null };
}

export function listComments(
  deps: AppDeps,
  workspaceId: string,
  shareId: string,
  q: { after?: string; limit: number },
) {
  requireShare(deps, workspaceId, shareId);
  return commentsPage(commentsOf(deps.db, shareId, q.after ?? "", q.limit + 1), q.limit);
}

export interface CommentAuthor {
  kind: CommentRow["author_kind"];
  name: string | null;
  email: string | null;
}

/**
 * A comment's anchor must point into one of the share's files (`not_in_share`), as the file and
 * its probe were read.
 */
export function checkCommentAnchor(
  anchor: MediaAnchor,
  file: Pick<ShareFileRow, "mime"> | undefined,
  probe: { duration_ms: number | null; page_count: number | null } | undefined,
) {
  if (!file)
    throw validationFailed("anchor.path", `"${anchor.path}" is not in this share`, "not_in_share");
  checkAnchor("anchor", anchor, { mime: file.mime, ...probedFacts(probe) });
}

export type CommentInput = z.output<typeof createCommentBodySchema>;

/**
 * The new row, given the comment it answers as read: threads are one level deep, so a reply to a
 * reply joins the thread of the comment it answers. An unknown `parentId` is
 * `validation_failed` (`unknown_parent`).
 */
export function newComment(
  shareId: string,
  author: CommentAuthor,
  body: CommentInput,
  parent: Pick<CommentRow, "id" | "parent_id"> | undefined,
  now: number,
): CommentRow {
  if (body.parentId !== undefined && !parent)
    throw validationFailed("parentId", "No such comment on this share", "unknown_parent");
  return {
    id: newId(),
    share_id: shareId,
    parent_id: parent ? (parent.parent_id ?? parent.id) : null,
    body: body.body,
    author_kind: author.kind,
    author_name: author.name,
    author_email: author.email,
    created_at: now,
    ...anchorColumns(body.anchor),
  };
}

/** A comment, or a reply; an anchor points at a time or a PDF page of one of the share's files. */
export function addComment(
  deps: AppDeps,
  share: ShareRow,
  author: CommentAuthor,
  body: CommentInput,
): ShareComment {
  const { db } = deps;
  return db
    .transaction((): ShareComment => {
      if (body.anchor) {
        const file = fileByPath(db, share.id, body.anchor.path);
        checkCommentAnchor(body.anchor, file, file && probeOf(db, file.sha256));
      }
      const parent =
        body.parentId === undefined ? undefined : commentById(db, share.id, body.parentId);
      const row = newComment(share.id, author, body, parent, deps.clock.now());
      insertComment(db, row);
      return toComment(row);
    })
    .immediate();
}

/** The author of a member's comment: the key's member (none for a key without one). */
export const memberAuthor = (member: Pick<MemberRow, "name" | "email"> | undefined) =>
  ({ kind: "member", name: member?.name ?? null, email: member?.email ?? null }) as const;

/** A member comments through the API: the key's member is the author. */
export function addMemberComment(
  deps: AppDeps,
  caller: Caller,
  shareId: string,
  body: CommentInput,
) {
  const share = requireShare(deps, caller.workspaceId, shareId);
  const member = caller.memberId === null ? undefined : getMember(deps.db, caller.memberId);
  return addComment(deps, share, memberAuthor(member), body);
}
