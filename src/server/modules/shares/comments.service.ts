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
import { getMember } from "@/server/modules/members/members.repository";
import {
  type CommentRow,
  commentById,
  commentsOf,
  fileByPath,
  insertComment,
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

/** A comment's anchor must point into one of the share's files (`not_in_share`). */
function checkCommentAnchor(deps: AppDeps, share: ShareRow, anchor: MediaAnchor) {
  const file = fileByPath(deps.db, share.id, anchor.path);
  if (!file)
    throw validationFailed("anchor.path", `"${anchor.path}" is not in this share`, "not_in_share");
  checkAnchor("anchor", anchor, { mime: file.mime, ...probedFacts(probeOf(deps.db, file.sha256)) });
}

/**
 * A comment, or a reply: threads are one level deep, so a reply to a reply joins the thread of
 * the comment it answers. An unknown `parentId` is `validation_failed` (`unknown_parent`). An
 * anchor points at a time or a PDF page of one of the share's files.
 */
export function addComment(
  deps: AppDeps,
  share: ShareRow,
  author: CommentAuthor,
  body: z.output<typeof createCommentBodySchema>,
): ShareComment {
  return deps.db
    .transaction((): ShareComment => {
      if (body.anchor) checkCommentAnchor(deps, share, body.anchor);
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
        ...anchorColumns(body.anchor),
      };
      insertComment(deps.db, row);
      return toComment(row);
    })
    .immediate();
}

/** A member comments through the API: the key's member is the author. */
export function addMemberComment(
  deps: AppDeps,
  caller: Caller,
  shareId: string,
  body: z.output<typeof createCommentBodySchema>,
) {
  const share = requireShare(deps, caller.workspaceId, shareId);
  const member = caller.memberId === null ? undefined : getMember(deps.db, caller.memberId);
  return addComment(
    deps,
    share,
    { kind: "member", name: member?.name ?? null, email: member?.email ?? null },
    body,
  );
}
