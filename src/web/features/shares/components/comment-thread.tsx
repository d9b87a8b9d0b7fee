import { useState } from "react";
import { formatDateTime, formatRelative } from "@/browser/format";
import { SHARE_COMMENT_MAX } from "@/contract/rules";
import type { ShareComment, ShareItem } from "@/contract/shares";
import { LoadError } from "@/web/components/load-error";
import { AnchorButton, noteProblem, useAttachAnchor } from "@/web/components/media-anchor";
import { Button } from "@/web/components/ui/button";
import { FormError } from "@/web/components/ui/form-field";
import { Skeleton } from "@/web/components/ui/skeleton";
import { TextAreaField } from "@/web/components/ui/text-field";
import { useViewerStore } from "@/web/features/viewer";
import { viewerRequestAt } from "@/web/lib/media-anchors";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useAddCommentMutation } from "../api/add-comment";
import { useCommentsQuery } from "../api/list-comments";
import { threadsOf } from "../comment-threads";

const fields = ["body"] as const;

/** A file of the share: one shared itself, or one in a shared folder. */
const inShare = (items: readonly ShareItem[]) => (path: string) =>
  items.some((i) => (i.type === "file" ? i.path === path : path.startsWith(`${i.path}/`)));

function Composer({
  workspaceId,
  shareId,
  items,
  parentId,
  label,
  onDone,
}: {
  workspaceId: string;
  shareId: string;
  items: readonly ShareItem[];
  parentId?: string;
  label: string;
  onDone?(): void;
}) {
  const add = useAddCommentMutation(shareId);
  const [body, setBody] = useState("");
  const attach = useAttachAnchor(
    useViewerStore((s) => s.position),
    workspaceId,
    inShare(items),
  );
  const submit = useAsyncSubmit({
    fields,
    validate: () => ({ body: noteProblem(body, SHARE_COMMENT_MAX) }),
    run: () => add.mutateAsync({ body: body.trim(), parentId, anchor: attach.chosen }),
    onSuccess: () => {
      setBody("");
      attach.reset();
      onDone?.();
    },
  });
  return (
    <form onSubmit={submit.onSubmit} className="grid gap-2" noValidate>
      <TextAreaField
        label={label}
        error={submit.problems.body}
        rows={2}
        value={body}
        onValueChange={setBody}
        autoFocus={parentId !== undefined}
      />
      <FormError>{submit.problems.form}</FormError>
      <div className="flex flex-wrap items-center justify-end gap-2">
        {attach.control}
        {onDone && parentId && (
          <Button size="sm" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        )}
        <Button size="sm" type="submit" disabled={submit.pending}>
          {submit.pending ? "Posting…" : parentId ? "Reply" : "Comment"}
        </Button>
      </div>
    </form>
  );
}

function Comment({ comment, onOpen }: { comment: ShareComment; onOpen(): void }) {
  const who =
    comment.author.kind === "anonymous"
      ? "Someone with the link"
      : (comment.author.name ?? comment.author.email ?? "Unknown");
  return (
    <article className="grid gap-1 text-sm">
      <p className="flex flex-wrap gap-x-2">
        <span className="font-medium">{who}</span>
        <span className="text-muted-foreground">
          {comment.author.kind === "recipient" ? "recipient · " : ""}
          <time dateTime={comment.createdAt} title={formatDateTime(comment.createdAt)}>
            {formatRelative(comment.createdAt)}
          </time>
        </span>
      </p>
      {comment.anchor && <AnchorButton anchor={comment.anchor} onOpen={onOpen} />}
      <p className="whitespace-pre-wrap break-words">{comment.body}</p>
    </article>
  );
}

/** The conversation with recipients: threads one level deep, answered as the workspace. */
export function CommentThread({
  workspaceId,
  shareId,
  items,
}: {
  workspaceId: string;
  shareId: string;
  /** The share's items: a note may point into their files. */
  items: readonly ShareItem[];
}) {
  const comments = useCommentsQuery(workspaceId, shareId);
  const [replyTo, setReplyTo] = useState<string | null>(null);
  if (comments.isPending) return <Skeleton className="h-24" />;
  if (comments.isError)
    return (
      <LoadError
        title="Could not load the comments"
        error={comments.error}
        onRetry={() => void comments.refetch()}
      />
    );
  const all = comments.data.items;
  const threads = threadsOf(all);
  // A time-coded comment opens the viewer there, with the file's other notes as markers.
  const open = (c: ShareComment) => () => {
    const anchor = c.anchor;
    if (!anchor) return;
    // A file shared itself has its size here (a file inside a shared folder waits for its proxy).
    const size = items.find((i) => i.type === "file" && i.path === anchor.path)?.sizeBytes;
    useViewerStore.getState().show(viewerRequestAt(workspaceId, anchor, all, size));
  };
  return (
    <div className="grid gap-4">
      {threads.length === 0 && <p className="text-sm text-muted-foreground">No comments yet.</p>}
      <ul className="grid gap-4">
        {threads.map(({ first, replies }) => (
          <li key={first.id} className="grid gap-2 rounded-md border border-border p-3">
            <Comment comment={first} onOpen={open(first)} />
            {replies.length > 0 && (
              <ul className="grid gap-2 border-l-2 border-border pl-3">
                {replies.map((r) => (
                  <li key={r.id}>
                    <Comment comment={r} onOpen={open(r)} />
                  </li>
                ))}
              </ul>
            )}
            {replyTo === first.id ? (
              <Composer
                workspaceId={workspaceId}
                shareId={shareId}
                items={items}
                parentId={first.id}
                label="Your reply"
                onDone={() => setReplyTo(null)}
              />
            ) : (
              <Button
                size="sm"
                variant="ghost"
                className="justify-self-start"
                onClick={() => setReplyTo(first.id)}
              >
                Reply
              </Button>
            )}
          </li>
        ))}
      </ul>
      <Composer workspaceId={workspaceId} shareId={shareId} items={items} label="Add a comment" />
    </div>
  );
}
