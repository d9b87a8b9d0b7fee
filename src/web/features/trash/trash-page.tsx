import { useQuery } from "@tanstack/react-query";
import { RotateCcwIcon, Trash2Icon, XCircleIcon } from "lucide-react";
import { useMemo, useState } from "react";
import type { TrashItem } from "@/contract/files";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Button } from "@/web/components/ui/button";
import { DataTable } from "@/web/components/ui/data-table";
import { describeError } from "@/web/lib/api-client";
import { formatCount } from "@/web/lib/format";
import { toast } from "@/web/stores/toast-store";
import { trashListQueryOptions } from "./api/list-trash";
import { usePurgeTrashItemsMutation } from "./api/purge-trash-item";
import { useRestoreTrashItemsMutation } from "./api/restore-trash-item";
import { batchReport, describeItems } from "./batch-report";
import { TrashFilters } from "./components/trash-filters";
import { TrashTable } from "./components/trash-table";
import { filterTrash, isFiltered, type TrashSearch, trashFolders } from "./trash-filter";
import { useTrashFilter } from "./use-trash-filter";

type Confirm = { kind: "purge"; items: TrashItem[] } | { kind: "empty"; items: TrashItem[] };

export function TrashPage({ workspaceId, search }: { workspaceId: string; search: TrashSearch }) {
  const trash = useQuery(trashListQueryOptions(workspaceId));
  const restore = useRestoreTrashItemsMutation();
  const purge = usePurgeTrashItemsMutation();
  const { filter, setText, setFilter, clear } = useTrashFilter(search);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirm, setConfirm] = useState<Confirm | null>(null);

  const items = trash.data ?? [];
  const folders = useMemo(() => trashFolders(trash.data ?? []), [trash.data]);
  const shown = useMemo(() => filterTrash(trash.data ?? [], filter), [trash.data, filter]);
  // Actions reach only what is both selected and shown: a filter must never hide a target.
  const targets = shown.filter((i) => selected.has(i.id));

  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = () =>
    setSelected(targets.length === shown.length ? new Set() : new Set(shown.map((i) => i.id)));
  const forget = (ids: string[]) =>
    setSelected((s) => new Set([...s].filter((id) => !ids.includes(id))));

  const restoreTargets = () => {
    const batch = targets;
    restore.mutate(
      batch.map((i) => i.id),
      {
        onSuccess: (outcome) => {
          forget(outcome.done);
          toast(batchReport({ past: "Restored", base: "restore" }, batch, outcome, describeError));
        },
        onError: (error) =>
          toast({ title: "Could not restore", description: describeError(error), tone: "error" }),
      },
    );
  };
  const purgeItems = async (batch: TrashItem[]) => {
    const outcome = await purge.mutateAsync(batch.map((i) => i.id));
    forget(outcome.done);
    toast(batchReport({ past: "Purged", base: "purge" }, batch, outcome, describeError));
  };

  const busy = restore.isPending || purge.isPending;
  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <PageHeader
        title="Trash"
        description={
          trash.data
            ? `${formatCount(items.length)} item${items.length === 1 ? "" : "s"}, purged automatically when their time comes`
            : "Deleted files and folders, until they are purged"
        }
        actions={
          <Button
            variant="outline"
            disabled={items.length === 0 || busy}
            onClick={() => setConfirm({ kind: "empty", items })}
          >
            <XCircleIcon aria-hidden="true" />
            Empty trash
          </Button>
        }
      />
      {trash.isPending ? (
        <DataTable
          label="Trashed items"
          loading
          loadingLabel="Loading the trash"
          columns={[]}
          rows={[]}
          rowKey={() => ""}
          rowHeight={44}
        />
      ) : trash.isError ? (
        <div className="p-4">
          <LoadError
            title="Could not load the trash"
            error={trash.error}
            onRetry={() => void trash.refetch()}
          />
        </div>
      ) : items.length === 0 ? (
        <EmptyState icon={Trash2Icon} title="The trash is empty">
          Files and folders moved to the trash wait here until they are purged.
        </EmptyState>
      ) : (
        <>
          <TrashFilters filter={filter} folders={folders} onText={setText} onChange={setFilter} />
          <div className="flex min-h-12 flex-wrap items-center gap-2 border-b border-border px-4 py-2">
            <p className="mr-auto text-sm text-muted-foreground" aria-live="polite">
              {targets.length > 0
                ? `${formatCount(targets.length)} selected`
                : isFiltered(filter)
                  ? `${formatCount(shown.length)} of ${formatCount(items.length)} shown`
                  : "Select items to restore or purge them"}
            </p>
            <Button size="sm" disabled={targets.length === 0 || busy} onClick={restoreTargets}>
              <RotateCcwIcon aria-hidden="true" />
              {restore.isPending ? "Restoring…" : "Restore"}
            </Button>
            <Button
              size="sm"
              variant="destructive"
              disabled={targets.length === 0 || busy}
              onClick={() => setConfirm({ kind: "purge", items: targets })}
            >
              <XCircleIcon aria-hidden="true" />
              Purge…
            </Button>
          </div>
          <TrashTable
            items={shown}
            selected={selected}
            onToggle={toggle}
            onToggleAll={toggleAll}
            empty={
              <EmptyState
                icon={Trash2Icon}
                title="Nothing matches the filter"
                action={
                  <Button variant="outline" size="sm" onClick={clear}>
                    Clear the filter
                  </Button>
                }
              />
            }
          />
        </>
      )}
      {confirm && (
        <ConfirmDialog
          destructive
          pendingLabel="Purging…"
          title={
            confirm.kind === "empty"
              ? "Empty the trash?"
              : `Purge ${describeItems(confirm.items)} permanently?`
          }
          description={
            confirm.kind === "empty"
              ? `All ${formatCount(confirm.items.length)} items are deleted for good, with everything in the folders and every kept version. This cannot be undone.`
              : "They are deleted for good, with everything in the folders and every kept version. This cannot be undone."
          }
          confirmLabel={confirm.kind === "empty" ? "Empty trash" : "Purge"}
          onConfirm={() => purgeItems(confirm.items)}
          onClose={() => setConfirm(null)}
        />
      )}
    </div>
  );
}
