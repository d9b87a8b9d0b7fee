import { useQuery } from "@tanstack/react-query";
import { RotateCcwIcon, Trash2Icon, XCircleIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { formatCount } from "@/browser/format";
import type { TrashItem } from "@/contract/files";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Button } from "@/web/components/ui/button";
import { DataTable } from "@/web/components/ui/data-table";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import { trashListQueryOptions } from "./api/list-trash";
import { describeItems, jobReport } from "./batch-report";
import { TrashFilters } from "./components/trash-filters";
import { TrashTable } from "./components/trash-table";
import {
  filterTrash,
  isFiltered,
  noTrashFilter,
  type TrashFilter,
  type TrashSearch,
  trashFolders,
} from "./trash-filter";
import { trashSelection } from "./trash-selection";
import { useTrashFilter } from "./use-trash-filter";
import { useTrashJob } from "./use-trash-job";

type Confirm =
  | { kind: "purge"; items: TrashItem[]; shown: TrashItem[]; filter: TrashFilter }
  | { kind: "empty"; items: TrashItem[] };

const verbs = {
  restore: { past: "Restored", base: "restore" },
  purge: { past: "Purged", base: "purge" },
};

export function TrashPage({ workspaceId, search }: { workspaceId: string; search: TrashSearch }) {
  const trash = useQuery(trashListQueryOptions(workspaceId));
  const job = useTrashJob();
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

  /**
   * One job for the whole selection: the ids, or the filter less what was left out. The toast
   * comes when it ends; the items it handled leave the selection with the refreshed list.
   */
  const runJob = async (
    action: "restore" | "purge",
    batch: TrashItem[],
    among: TrashItem[],
    by: TrashFilter,
  ) => {
    const selection = trashSelection(batch, among, by, Date.now());
    if (!selection) {
      toast({ title: `Too many items to ${action} at once`, tone: "error" });
      return;
    }
    const ended = await job.run(action, selection, batch);
    if (ended.failed === 0) forget(batch.map((i) => i.id));
    toast(jobReport(verbs[action], batch, ended));
  };
  const restoreTargets = () =>
    runJob("restore", targets, shown, filter).catch((error) =>
      toast({ title: "Could not restore", description: describeError(error), tone: "error" }),
    );
  const purgeItems = (c: Confirm) =>
    c.kind === "empty"
      ? runJob("purge", c.items, c.items, noTrashFilter)
      : runJob("purge", c.items, c.shown, c.filter);

  const busy = job.running !== null;
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
          <SelectionActions
            selected={targets.length}
            shown={shown.length}
            total={items.length}
            filtered={isFiltered(filter)}
            running={job.running}
            onRestore={restoreTargets}
            onPurge={() => setConfirm({ kind: "purge", items: targets, shown, filter })}
          />
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
        <PurgeConfirm
          confirm={confirm}
          onConfirm={() => purgeItems(confirm)}
          onClose={() => setConfirm(null)}
        />
      )}
    </div>
  );
}

/** What the selection can do, and how much of the trash is selected or shown. */
function SelectionActions({
  selected,
  shown,
  total,
  filtered,
  running,
  onRestore,
  onPurge,
}: {
  selected: number;
  shown: number;
  total: number;
  filtered: boolean;
  /** The job under way, if any: one at a time. */
  running: "restore" | "purge" | null;
  onRestore(): void;
  onPurge(): void;
}) {
  return (
    <div className="flex min-h-12 flex-wrap items-center gap-2 border-b border-border px-4 py-2">
      <p className="mr-auto text-sm text-muted-foreground" aria-live="polite">
        {selected > 0
          ? `${formatCount(selected)} selected`
          : filtered
            ? `${formatCount(shown)} of ${formatCount(total)} shown`
            : "Select items to restore or purge them"}
      </p>
      <Button size="sm" disabled={selected === 0 || running !== null} onClick={onRestore}>
        <RotateCcwIcon aria-hidden="true" />
        {running === "restore" ? "Restoring…" : "Restore"}
      </Button>
      <Button
        size="sm"
        variant="destructive"
        disabled={selected === 0 || running !== null}
        onClick={onPurge}
      >
        <XCircleIcon aria-hidden="true" />
        Purge…
      </Button>
    </div>
  );
}

function PurgeConfirm({
  confirm,
  onConfirm,
  onClose,
}: {
  confirm: Confirm;
  onConfirm(): Promise<unknown>;
  onClose(): void;
}) {
  return (
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
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
