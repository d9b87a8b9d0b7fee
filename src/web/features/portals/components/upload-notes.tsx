import { Trash2Icon } from "lucide-react";
import { useState } from "react";
import { formatDateTime, formatRelative } from "@/browser/format";
import type { UploadNote } from "@/contract/portal-review";
import { UPLOAD_NOTE_MAX } from "@/contract/portal-rules";
import type { PortalUpload } from "@/contract/portals";
import { LoadError } from "@/web/components/load-error";
import { AnchorButton, noteProblem, useAttachAnchor } from "@/web/components/media-anchor";
import { Button } from "@/web/components/ui/button";
import { FormError } from "@/web/components/ui/form-field";
import { Skeleton } from "@/web/components/ui/skeleton";
import { TextAreaField } from "@/web/components/ui/text-field";
import { useViewerStore } from "@/web/features/viewer";
import { describeError } from "@/web/lib/api-client";
import { viewerRequestAt } from "@/web/lib/media-anchors";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { toast } from "@/web/stores/toast-store";
import { useAddUploadNoteMutation } from "../api/add-upload-note";
import { useDeleteUploadNoteMutation } from "../api/delete-upload-note";
import { useUploadNotesQuery } from "../api/list-upload-notes";
import { Part } from "./upload-inspector-parts";

/* Reviewers' notes on an upload's files, each at a time or page when it is about one. */

const fields = ["body"] as const;

function NoteForm({ workspaceId, upload }: { workspaceId: string; upload: PortalUpload }) {
  const add = useAddUploadNoteMutation(upload.id);
  const [body, setBody] = useState("");
  const attach = useAttachAnchor(
    useViewerStore((s) => s.position),
    workspaceId,
    (p) => p.startsWith(`${upload.folderPath}/`),
  );
  const submit = useAsyncSubmit({
    fields,
    validate: () => ({ body: noteProblem(body, UPLOAD_NOTE_MAX) }),
    run: () => add.mutateAsync({ body: body.trim(), anchor: attach.chosen }),
    onSuccess: () => {
      setBody("");
      attach.reset();
    },
  });
  return (
    <form onSubmit={submit.onSubmit} className="grid gap-2" noValidate>
      <TextAreaField
        label="Add a note"
        error={submit.problems.body}
        rows={2}
        value={body}
        onValueChange={setBody}
      />
      <FormError>{submit.problems.form}</FormError>
      <div className="flex flex-wrap items-center justify-end gap-2">
        {attach.control}
        <Button size="sm" type="submit" disabled={submit.pending}>
          {submit.pending ? "Saving…" : "Add note"}
        </Button>
      </div>
    </form>
  );
}

function Note({ note, onOpen, onDelete }: { note: UploadNote; onOpen(): void; onDelete(): void }) {
  return (
    <article className="grid gap-1">
      <p className="flex flex-wrap items-center gap-x-2">
        <span className="font-medium">{note.author.name ?? note.author.email ?? "A key"}</span>
        <time
          className="text-muted-foreground"
          dateTime={note.createdAt}
          title={formatDateTime(note.createdAt)}
        >
          {formatRelative(note.createdAt)}
        </time>
        <Button
          size="icon-sm"
          variant="ghost"
          className="ml-auto size-7"
          aria-label="Delete this note"
          title="Delete (your own notes only)"
          onClick={onDelete}
        >
          <Trash2Icon aria-hidden="true" />
        </Button>
      </p>
      {note.anchor && <AnchorButton anchor={note.anchor} onOpen={onOpen} />}
      <p className="whitespace-pre-wrap break-words">{note.body}</p>
    </article>
  );
}

/** The notes part of the review inspector: the thread, and a form that may attach a time. */
export function UploadNotesPart({
  workspaceId,
  upload,
}: {
  workspaceId: string;
  upload: PortalUpload;
}) {
  const notes = useUploadNotesQuery(workspaceId, upload.id);
  const remove = useDeleteUploadNoteMutation(upload.id);
  const items = notes.data?.items ?? [];
  const open = (n: UploadNote) => () => {
    const anchor = n.anchor;
    if (!anchor) return;
    const size = upload.files.find((f) => f.path === anchor.path)?.size;
    useViewerStore.getState().show(viewerRequestAt(workspaceId, anchor, items, size));
  };
  const onDelete = (n: UploadNote) => () =>
    remove.mutate(n.id, {
      onError: (error) =>
        toast({
          title: "The note was not deleted",
          description: describeError(error),
          tone: "error",
        }),
    });
  return (
    <Part title="Notes">
      {notes.isPending ? (
        <Skeleton className="h-12" />
      ) : notes.isError ? (
        <LoadError
          title="Could not load the notes"
          error={notes.error}
          onRetry={() => void notes.refetch()}
        />
      ) : items.length === 0 ? (
        <p className="text-muted-foreground">No notes yet.</p>
      ) : (
        <ul className="grid gap-3">
          {items.map((n) => (
            <li key={n.id}>
              <Note note={n} onOpen={open(n)} onDelete={onDelete(n)} />
            </li>
          ))}
        </ul>
      )}
      <NoteForm workspaceId={workspaceId} upload={upload} />
    </Part>
  );
}
