import { useNavigate } from "@tanstack/react-router";
import { ArrowUpDownIcon } from "lucide-react";
import { formatCount } from "@/browser/format";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Alert, AlertDescription, AlertTitle } from "@/web/components/ui/alert";
import { useUploadsStore } from "@/web/features/transfers/state/uploads-store";
import { useTransferQuery } from "./api/get-transfer";
import { useTransfersQuery } from "./api/list-transfers";
import { TransferDrawer } from "./components/transfer-drawer";
import { TransfersFilters } from "./components/transfers-filters";
import { type TransferRow, TransfersTable } from "./components/transfers-table";
import { UploadControls } from "./components/upload-controls";
import { describeUpload, isActiveTransfer, viewOf } from "./transfer-model";
import type { TransfersSearch } from "./transfers-search";
import { useUploadsElsewhere } from "./use-uploads-elsewhere";

/**
 * Every recent transfer in the workspace, whichever engine runs it, live while any is active;
 * this browser's own uploads with their controls, and those waiting for their files after a
 * reload.
 */
export function TransfersPage({
  workspaceId,
  search,
}: {
  workspaceId: string;
  search: TransfersSearch;
}) {
  const { transfer: openId, ...filters } = search;
  const navigate = useNavigate({ from: "/transfers" });
  const list = useTransfersQuery(workspaceId, {
    status: filters.status,
    direction: filters.direction,
  });
  const stored = useUploadsStore((s) => s.uploads);
  const elsewhere = useUploadsElsewhere(Object.values(stored));
  // An upload another tab runs is that tab's: here it is the service's record, like any other.
  const uploads = Object.fromEntries(Object.entries(stored).filter(([id]) => !elsewhere.has(id)));
  const waiting = Object.values(uploads).filter(
    (u) => u.workspaceId === workspaceId && u.status === "waiting",
  );
  const rows: TransferRow[] = (list.data ?? [])
    .filter((t) => !filters.client || t.client === filters.client)
    .map((record) => ({ record, view: viewOf(record, uploads[record.id]) }));
  const active = rows.filter((r) => isActiveTransfer(r.record)).length;

  const listed = rows.find((r) => r.record.id === openId)?.record;
  // A transfer filtered out of the list (or older than it) still opens from a link.
  const one = useTransferQuery(workspaceId, listed ? undefined : openId);
  const open = listed ?? one.data;
  const setSearch = (next: TransfersSearch) => void navigate({ search: next, replace: true });

  return (
    <div className="flex min-h-0 flex-1 flex-col max-md:overflow-auto">
      <PageHeader
        title="Transfers"
        description={
          active > 0
            ? `${formatCount(active)} active; uploads and downloads by every engine`
            : "Uploads and downloads by every engine: this console, the command line and more"
        }
      />
      <TransfersFilters filters={filters} onChange={(f) => setSearch({ ...f, transfer: openId })} />
      {waiting.length > 0 && (
        <div className="grid gap-2 border-b border-border p-4">
          {waiting.map((u) => (
            <Alert key={u.transferId} tone="warning">
              <div className="grid gap-2">
                <AlertTitle>Waiting for files: {describeUpload(u)}</AlertTitle>
                <AlertDescription>
                  The page was reloaded, and a browser cannot reopen files by itself. Choose the
                  same files or folder to resume: the upload continues where it stopped.
                </AlertDescription>
                <UploadControls upload={u} label={describeUpload(u)} />
              </div>
            </Alert>
          ))}
        </div>
      )}
      {list.error ? (
        <div className="p-4">
          <LoadError
            title="Could not load the transfers"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        </div>
      ) : (
        <TransfersTable
          rows={rows}
          selectedId={open?.id ?? null}
          onOpen={(id) => void navigate({ search: { ...search, transfer: id } })}
          loading={list.isPending}
          empty={
            <EmptyState icon={ArrowUpDownIcon} title="No transfers here">
              {filters.status || filters.direction || filters.client
                ? "None match these filters."
                : "Upload files from Files (the Upload button, or drop them on the list); download with Download in a file's menu."}
            </EmptyState>
          }
        />
      )}
      {open && (
        <TransferDrawer
          record={open}
          view={viewOf(open, uploads[open.id])}
          onClose={() => setSearch({ ...filters })}
        />
      )}
    </div>
  );
}
