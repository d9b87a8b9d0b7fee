import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AlertTriangleIcon } from "lucide-react";
import { useState } from "react";
import { ApiError } from "@/browser/api-error";
import { formatCount } from "@/browser/format";
import type { RenameBatchResult } from "@/contract/operations";
import { Button } from "@/web/components/ui/button";
import { DataTable, type DataTableColumn } from "@/web/components/ui/data-table";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/web/components/ui/dialog";
import { FormError } from "@/web/components/ui/form-field";
import {
  renamePreviewQueryOptions,
  useRenameBatchMutation,
} from "@/web/features/files/api/rename-batch";
import {
  buildPattern,
  emptyRenameForm,
  isEmptyPattern,
  isPlanStale,
  type PreviewRow,
  previewRows,
  type RenameForm,
} from "@/web/features/files/state/rename-preview";
import { describeError } from "@/web/lib/api-client";
import { cn } from "@/web/lib/cn";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useDebouncedValue } from "@/web/lib/use-debounced-value";
import { useSessionStore } from "@/web/stores/session-store";
import { toast } from "@/web/stores/toast-store";
import { PatternFields } from "./rename-pattern-fields";

/** Long enough to let a word be typed, short enough that the preview follows the typing. */
const PREVIEW_DEBOUNCE_MS = 250;
const ROW_HEIGHT = 44;

type FieldName = keyof RenameForm;

/** The service names a pattern's member as `pattern.find`, `pattern.numbering.padding`… */
function patternProblems(error: unknown): {
  fields: Partial<Record<FieldName, string>>;
  form?: string;
} {
  const fields: Partial<Record<FieldName, string>> = {};
  if (error instanceof ApiError)
    for (const issue of error.fieldIssues) {
      const [root, member, inner] = issue.field.split(".");
      const name = (member === "numbering" ? inner : member) as FieldName | undefined;
      if (root === "pattern" && name && name in emptyRenameForm) fields[name] ??= issue.message;
    }
  return Object.keys(fields).length > 0 ? { fields } : { fields, form: describeError(error) };
}

const planIdOf = (result: RenameBatchResult | undefined) =>
  typeof result?.planId === "string" ? result.planId : undefined;

/** The dry run of the pattern once typing pauses, and what it says: rows, problems, counts. */
function useRenamePreview(workspaceId: string, paths: string[], form: RenameForm) {
  const pattern = buildPattern(form);
  const previewed = useDebouncedValue(pattern, PREVIEW_DEBOUNCE_MS);
  const typing = JSON.stringify(pattern) !== JSON.stringify(previewed);
  const preview = useQuery({
    ...renamePreviewQueryOptions(workspaceId, paths, previewed),
    enabled: !isEmptyPattern(previewed),
    placeholderData: keepPreviousData,
  });
  const result = isEmptyPattern(previewed) ? undefined : preview.data;
  const rows = previewRows(paths, result);
  const invalid =
    preview.error && !isEmptyPattern(previewed) ? patternProblems(preview.error) : { fields: {} };
  const conflicts = rows.filter((r) => r.status === "conflict").length;
  const changed = rows.filter((r) => r.status === "renamed").length;
  const planId = planIdOf(result);
  const ready =
    !typing && !preview.isFetching && !preview.isPlaceholderData && !preview.error && !!planId;

  return { previewed, typing, preview, rows, invalid, conflicts, changed, planId, ready };
}

const columns: DataTableColumn<PreviewRow>[] = [
  {
    id: "old",
    header: "Old name",
    primary: true,
    cell: (row) => (
      <span className={cn(row.status === "unchanged" && "text-muted-foreground")} title={row.name}>
        {row.name}
      </span>
    ),
  },
  {
    id: "new",
    header: "New name",
    cell: (row) =>
      row.status === "conflict" ? (
        <span className="grid min-w-0 text-destructive-text" title={row.reason}>
          <span className="flex min-w-0 items-center gap-1 truncate font-medium">
            <AlertTriangleIcon className="size-3.5 shrink-0" aria-hidden="true" />
            <span className="sr-only">Conflict: </span>
            <span className="truncate">{row.newName}</span>
          </span>
          <span className="truncate text-xs">{row.reason}</span>
        </span>
      ) : row.status === "unchanged" ? (
        <span className="text-muted-foreground">
          {row.newName} <span className="text-xs">(unchanged)</span>
        </span>
      ) : (
        <span className="font-medium" title={row.newName}>
          {row.newName}
        </span>
      ),
  },
];

/**
 * Loaded when first opened: a pattern for several names, a preview that follows the typing (a
 * dry run per pause, the stale one cancelled) and Apply, which runs exactly the plan previewed
 * (its `planId`); if the folder changed since, the service refuses and the preview is refreshed.
 */
export default function RenameBatchDialog({
  paths,
  onDone,
  onClose,
}: {
  paths: string[];
  onDone(): void;
  onClose(): void;
}) {
  const workspaceId = useSessionStore((s) => s.session?.workspaceId ?? "");
  const [form, setForm] = useState(emptyRenameForm);
  const set = <K extends FieldName>(key: K, value: RenameForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const { previewed, typing, preview, rows, invalid, conflicts, changed, planId, ready } =
    useRenamePreview(workspaceId, paths, form);
  const apply = useRenameBatchMutation();
  const { onSubmit, pending, problems, setProblems } = useAsyncSubmit({
    fields: [],
    validate: () => ({
      form:
        conflicts > 0
          ? "Resolve the conflicts first: change the pattern until no name collides."
          : changed === 0
            ? "The pattern changes no name yet."
            : undefined,
    }),
    run: async () => {
      try {
        return await apply.mutateAsync({ paths, pattern: previewed, planId: planId ?? "" });
      } catch (error) {
        if (isPlanStale(error)) {
          void preview.refetch();
          throw new Error(
            "The folder changed since this preview, so nothing was renamed. The preview is updated: check it and apply again.",
          );
        }
        throw error;
      }
    },
    onSuccess: (done) => {
      const count = done.applied.length || changed;
      toast({ title: `Renamed ${formatCount(count)} item${count === 1 ? "" : "s"}` });
      onDone();
      onClose();
    },
  });

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-3xl">
        <form onSubmit={onSubmit} className="grid min-w-0 gap-4" noValidate>
          <DialogHeading title={<>Rename {formatCount(paths.length)} items</>}>
            The preview follows what you type. Apply renames them all at once, or none.
          </DialogHeading>
          <PatternFields
            form={form}
            set={set}
            errors={invalid.fields}
            onTextChange={() => setProblems({})}
          />
          <div className="flex h-64 min-w-0 flex-col rounded-md border border-border">
            <DataTable
              label="Preview of the new names"
              columns={columns}
              rows={rows}
              rowKey={(row) => row.from}
              rowHeight={ROW_HEIGHT}
            />
          </div>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {typing || preview.isFetching
              ? "Updating the preview…"
              : `${formatCount(changed)} to rename${conflicts > 0 ? `, ${formatCount(conflicts)} in conflict` : ""}`}
          </p>
          <FormError>{problems.form ?? invalid.form}</FormError>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending || !ready}>
              {pending ? "Renaming…" : "Apply"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
