import type { ShareComment } from "@/contract/shares";
import { insertRowPg } from "@/server/db/pg/insert-row";
import type { PgClient } from "@/server/db/pg/pool";
import type { ProbeRow } from "@/server/modules/media/renditions.repository";
import {
  type CommentAuthor,
  type CommentInput,
  checkCommentAnchor,
  newComment,
  toComment,
} from "./comments.service";
import type { CommentRow, ShareFileRow, ShareRow } from "./shares.repository";

/**
 * comments.service.ts's addComment on PostgreSQL, in the caller's transaction: the anchor
 * checked against the share's file and its probe, the thread's parent read, the row and the
 * share's count written.
 */
export async function addCommentPg(
  c: PgClient,
  share: ShareRow,
  author: CommentAuthor,
  body: CommentInput,
  now: number,
): Promise<ShareComment> {
  const one = async <T extends object>(sql: string, values: unknown[]) =>
    (await c.query<T>(sql, values)).rows[0];
  if (body.anchor) {
    const file = await one<ShareFileRow>(
      "SELECT * FROM share_files WHERE share_id = $1 AND path = $2",
      [share.id, body.anchor.path],
    );
    const probe =
      file && (await one<ProbeRow>("SELECT * FROM media_probes WHERE sha256 = $1", [file.sha256]));
    checkCommentAnchor(body.anchor, file, probe);
  }
  const parent =
    body.parentId === undefined
      ? undefined
      : await one<CommentRow>("SELECT * FROM share_comments WHERE share_id = $1 AND id = $2", [
          share.id,
          body.parentId,
        ]);
  const row = newComment(share.id, author, body, parent, now);
  await insertRowPg(c, "share_comments", row);
  await c.query("UPDATE shares SET comment_count = comment_count + 1 WHERE id = $1", [share.id]);
  return toComment(row);
}
