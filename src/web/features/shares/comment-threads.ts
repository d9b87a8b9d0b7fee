import type { ShareComment } from "@/contract/shares";

export interface CommentThread {
  first: ShareComment;
  replies: ShareComment[];
}

/**
 * Comments (oldest first) as threads one level deep; a reply whose first comment is not on
 * this page starts a thread of its own rather than disappearing.
 */
export function threadsOf(comments: readonly ShareComment[]): CommentThread[] {
  const threads = new Map<string, CommentThread>();
  for (const c of comments) {
    const parent = c.parentId === null ? undefined : threads.get(c.parentId);
    if (parent) parent.replies.push(c);
    else threads.set(c.id, { first: c, replies: [] });
  }
  return [...threads.values()];
}
