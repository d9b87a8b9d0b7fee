import { InboxIcon } from "lucide-react";
import { useCallback, useEffect, useMemo, useState } from "react";
import { PORTAL_UPLOADS_SEARCH_MAX } from "@/contract/portal-rules";
import type { Portal } from "@/contract/portals";
import { EmptyState } from "@/web/components/empty-state";
import { FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { NativeSelect } from "@/web/components/ui/native-select";
import { useDebouncedValue } from "@/web/lib/use-debounced-value";
import { usePortalUploadsQuery } from "../api/list-portal-uploads";
import type { UploadsFilter } from "../api/portals-keys";
import {
  type PortalsSearch,
  type QueueStatus,
  queueStatuses,
  statusParam,
} from "../portals-search";
import { ReviewQueue } from "./review-queue";

const statusLabels: Record<QueueStatus, string> = {
  awaiting: "Waiting for review",
  received: "Received",
  pending: "Pending",
  approved: "Approved",
  rejected: "Rejected",
  uploading: "Uploading",
  failed: "Failed",
  all: "Any status",
};

/** Typing settles this long before the address (and the request) follow it. */
const SEARCH_DEBOUNCE_MS = 300;

/** The review queue across portals, filtered as the address says (`portalId`, `status`, `q`). */
export function ReviewQueueView({
  workspaceId,
  search,
  portals,
  onSearch,
}: {
  workspaceId: string;
  search: PortalsSearch;
  portals: Portal[];
  onSearch(search: PortalsSearch): void;
}) {
  const filter: UploadsFilter = {
    portalId: search.portalId,
    status: statusParam(search.status),
    q: search.q,
  };
  const list = usePortalUploadsQuery(workspaceId, filter);
  const uploads = useMemo(() => list.data?.pages.flatMap((p) => p.items) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const byId = useMemo(() => new Map(portals.map((p) => [p.id, p])), [portals]);
  const portalOf = useCallback((id: string) => byId.get(id), [byId]);
  const { fetchNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const filtered =
    search.portalId !== undefined || search.status !== "awaiting" || search.q !== undefined;
  const known = portals.some((p) => p.id === search.portalId);

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <search
        aria-label="Filter the uploads"
        className="flex flex-wrap items-end gap-3 border-b border-border px-4 py-3"
      >
        <FormField label="Portal" className="min-w-0 flex-[1_1_12rem] sm:flex-none">
          {(control) => (
            <NativeSelect
              {...control}
              className="w-full sm:w-64"
              value={search.portalId ?? ""}
              onChange={(e) => onSearch({ ...search, portalId: e.target.value || undefined })}
            >
              <option value="">All portals</option>
              {search.portalId && !known && <option value={search.portalId}>This portal</option>}
              {portals.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.title}
                  {p.awaitingReview > 0 ? ` (${p.awaitingReview} to review)` : ""}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <FormField label="Status" className="flex-[1_1_10rem] sm:flex-none">
          {(control) => (
            <NativeSelect
              {...control}
              value={search.status}
              onChange={(e) => onSearch({ ...search, status: e.target.value as QueueStatus })}
            >
              {queueStatuses.map((s) => (
                <option key={s} value={s}>
                  {statusLabels[s]}
                </option>
              ))}
            </NativeSelect>
          )}
        </FormField>
        <SearchField search={search} onSearch={onSearch} />
      </search>
      <ReviewQueue
        // Another filter is another list: its cursor starts at the top.
        key={`${search.portalId ?? ""}|${search.status}|${search.q ?? ""}`}
        workspaceId={workspaceId}
        uploads={uploads}
        total={total}
        filterStatus={filter.status}
        label="Uploads to review"
        loading={list.isPending}
        error={list.isError && uploads.length === 0 ? list.error : null}
        onRetry={() => void list.refetch()}
        hasMore={list.hasNextPage}
        loadingMore={list.isFetchingNextPage}
        loadMoreError={list.isFetchNextPageError ? list.error : null}
        onLoadMore={loadMore}
        portalOf={portalOf}
        empty={
          <EmptyState
            icon={InboxIcon}
            title={filtered ? "No uploads match" : "Nothing waits for review"}
          >
            {filtered
              ? "No upload matches here. Change the search, the status or the portal."
              : "Uploads that land through your portals wait here for a decision."}
          </EmptyState>
        }
      />
    </div>
  );
}

/** Sender or portal: the address follows the text once typing pauses (and at once on Enter). */
function SearchField({
  search,
  onSearch,
}: {
  search: PortalsSearch;
  onSearch(search: PortalsSearch): void;
}) {
  const [text, setText] = useState(search.q ?? "");
  const settled = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const apply = (q: string) => {
    if ((q || undefined) !== search.q) onSearch({ ...search, q: q || undefined });
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: only the settled text applies.
  useEffect(() => apply(settled), [settled]);
  return (
    <FormField label="Sender or portal" className="min-w-0 flex-[1_1_14rem] sm:flex-none">
      {(control) => (
        <Input
          {...control}
          type="search"
          className="w-full sm:w-64"
          placeholder="Name, email or portal"
          maxLength={PORTAL_UPLOADS_SEARCH_MAX}
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") apply(text.trim());
          }}
        />
      )}
    </FormField>
  );
}
