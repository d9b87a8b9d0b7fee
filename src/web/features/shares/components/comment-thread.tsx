import { useState } from "react";
import { formatDateTime, formatRelative } from "@/browser/format";
import { SHARE_COMMENT_MAX } from "@/contract/rules";
import type { ShareComment } from "@/contract/shares";
import { LoadError } from "@/web/components/load-error";
import { Button } from "@/web/components/ui/button";
import { FormError } from "@/web/components/ui/form-field";
import { Skeleton } from "@/web/components/ui/skeleton";
import { TextAreaField } from "@/web/components/ui/text-field";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useAddCommentMutation } from "../api/add-comment";
import { useCommentsQuery } from "../api/list-comments";
import { threadsOf } from "../comment-threads";

const fields = ["body"] as const;

function Composer({
  shareId,
  parentId,
  label,
  onDone,
}: {
  shareId: string;
  parentId?: string;
  label: string;
  onDone?(): void;
}) {
  const add = useAddCommentMutation(shareId);
  const [body, setBody] = useState("");
  const submit = useAsyncSubmit({
    fields,
    validate: () => ({
      body: !body.trim()
        ? "Write something first."
        : body.length > SHARE_COMMENT_MAX
          ? `At most ${SHARE_COMMENT_MAX} characters.`
          : undefined,
    }),
    run: () => add.mutateAsync({ body: body.trim(), parentId }),
    onSuccess: () => {
      setBody("");
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
      <div className="flex justify-end gap-2">
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

function Comment({ comment }: { comment: ShareComment }) {
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
      <p className="whitespace-pre-wrap break-words">{comment.body}</p>
    </article>
  );
}

/** The conversation with recipients: threads one level deep, answered as the workspace. */
export function CommentThread({ workspaceId, shareId }: { workspaceId: string; shareId: string }) {
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
  const threads = threadsOf(comments.data.items);
  return (
    <div className="grid gap-4">
      {threads.length === 0 && <p className="text-sm text-muted-foreground">No comments yet.</p>}
      <ul className="grid gap-4">
        {threads.map(({ first, replies }) => (
          <li key={first.id} className="grid gap-2 rounded-md border border-border p-3">
            <Comment comment={first} />
            {replies.length > 0 && (
              <ul className="grid gap-2 border-l-2 border-border pl-3">
                {replies.map((r) => (
                  <li key={r.id}>
                    <Comment comment={r} />
                  </li>
                ))}
              </ul>
            )}
            {replyTo === first.id ? (
              <Composer
                shareId={shareId}
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
      <Composer shareId={shareId} label="Add a comment" />
    </div>
  );
}
