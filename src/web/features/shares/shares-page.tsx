import { useNavigate } from "@tanstack/react-router";
import { Share2Icon } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError, LoadMoreError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Button } from "@/web/components/ui/button";
import { useSharesQuery } from "./api/list-shares";
import { BulkBar } from "./components/bulk-bar";
import { OutboxPanel } from "./components/outbox-panel";
import { SharesFilters } from "./components/shares-filters";
import { SharesTable } from "./components/shares-table";
import { SharePage } from "./share-page";
import { parseSharesSearch, type RawSharesSearch, type SharesSearch } from "./shares-search";

/**
 * Every share of the workspace, filtered as the address says, a page at a time; the outbox; or
 * the one share the address opens.
 */
export function SharesPage({
  workspaceId,
  search: raw,
}: {
  workspaceId: string;
  search: RawSharesSearch;
}) {
  const { outbox, share, view, ...filters } = parseSharesSearch(raw);
  const navigate = useNavigate({ from: "/shares" });
  const list = useSharesQuery(workspaceId, filters, !share);
  const shares = list.data?.pages.flatMap((p) => p.items) ?? [];
  const filtered = Object.values(filters).some((v) => v !== undefined);
  const setSearch = (next: SharesSearch) => void navigate({ search: next, replace: true });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  // Bulk actions reach only what is both selected and listed: a filter must never hide a target.
  const targets = shares.filter((s) => selected.has(s.id));
  const toggle = (id: string) =>
    setSelected((old) => {
      const next = new Set(old);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const toggleAll = () =>
    setSelected(targets.length === shares.length ? new Set() : new Set(shares.map((s) => s.id)));
  const forget = (ids: string[]) =>
    setSelected((old) => new Set([...old].filter((id) => !ids.includes(id))));
  if (share)
    return (
      <SharePage
        workspaceId={workspaceId}
        shareId={share}
        view={view}
        listSearch={{ ...filters, outbox }}
      />
    );

  return (
    <div className="flex min-h-0 flex-1 flex-col max-md:overflow-auto">
      <PageHeader
        title="Shares"
        description="Links to files, who opened them, and receipts that prove what arrived"
        actions={
          <Button
            variant="outline"
            aria-pressed={outbox ?? false}
            onClick={() => setSearch({ ...filters, outbox: outbox ? undefined : true })}
          >
            Outbox
          </Button>
        }
      />
      {outbox && <OutboxPanel workspaceId={workspaceId} />}
      <SharesFilters
        // A link that changes the filters starts the recipient box afresh.
        key={filters.recipient ?? ""}
        filters={filters}
        onChange={(f) => setSearch({ ...f, outbox })}
      />
      {/* A later page that fails keeps the rows shown; the error goes under them. */}
      {list.error && shares.length === 0 ? (
        <div className="p-4">
          <LoadError
            title="Could not load the shares"
            error={list.error}
            onRetry={() => void list.refetch()}
          />
        </div>
      ) : (
        <>
          <BulkBar targets={targets} onDone={forget} />
          <SharesTable
            listSearch={{ ...filters, outbox }}
            shares={shares}
            loading={list.isPending}
            selection={{ selected, onToggle: toggle, onToggleAll: toggleAll }}
            onEndReached={() => {
              if (list.hasNextPage && !list.isFetchingNextPage && !list.isFetchNextPageError)
                void list.fetchNextPage();
            }}
            footer={
              list.isFetchingNextPage ? (
                <p className="p-3 text-center text-sm text-muted-foreground">Loading more…</p>
              ) : list.isFetchNextPageError ? (
                <LoadMoreError
                  what="shares"
                  error={list.error}
                  onRetry={() => void list.fetchNextPage()}
                />
              ) : undefined
            }
            empty={
              <EmptyState icon={Share2Icon} title={filtered ? "No shares match" : "No shares yet"}>
                {filtered
                  ? "None match these filters."
                  : "Select files or folders in Files and choose Share… to send a link."}
              </EmptyState>
            }
          />
        </>
      )}
    </div>
  );
}
