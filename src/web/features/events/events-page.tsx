import { useNavigate } from "@tanstack/react-router";
import { ActivityIcon, ArrowUpToLineIcon, PauseIcon, PlayIcon } from "lucide-react";
import { useMemo, useState } from "react";
import { formatDateTime } from "@/browser/format";
import { streamEventTypes } from "@/contract/event-catalogue";
import type { Event } from "@/contract/events";
import { EmptyState } from "@/web/components/empty-state";
import { EventTypeOptions } from "@/web/components/event-type-options";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Button } from "@/web/components/ui/button";
import { DataTable, type DataTableColumn, rowActionClass } from "@/web/components/ui/data-table";
import { FormField } from "@/web/components/ui/form-field";
import { NativeSelect } from "@/web/components/ui/native-select";
import { useEventTailQuery } from "./api/tail-events";
import { EventDrawer } from "./components/event-drawer";
import { eventSummary } from "./event-summary";
import { parseEventsSearch, type RawEventsSearch } from "./events-search";

const ROW_HEIGHT = 52;

const columns: DataTableColumn<{ event: Event; open(): void }>[] = [
  {
    id: "event",
    header: "Event",
    primary: true,
    cell: ({ event, open }) => (
      <button type="button" onClick={open} className={`${rowActionClass} block w-full text-left`}>
        <span className="block truncate font-mono">{event.type}</span>
        <span className="block truncate text-xs text-muted-foreground">{eventSummary(event)}</span>
      </button>
    ),
  },
  {
    id: "when",
    header: "When",
    hideBelow: "sm",
    className: "w-52 text-right text-xs text-muted-foreground",
    cell: ({ event }) => (
      <>
        <span className="block truncate">{formatDateTime(event.createdAt)}</span>
        <span className="block truncate font-mono">{event.id}</span>
      </>
    ),
  },
];

export function EventsPage({
  workspaceId,
  search: raw,
}: {
  workspaceId: string;
  search: RawEventsSearch;
}) {
  const search = parseEventsSearch(raw);
  const navigate = useNavigate({ from: "/events" });
  const [paused, setPaused] = useState(false);
  const [session, setSession] = useState(0);
  const [inspected, setInspected] = useState<Event | null>(null);
  const tail = useEventTailQuery(workspaceId, { type: search.type, paused, session });
  const rows = useMemo(
    () => [...tail.events].reverse().map((event) => ({ event, open: () => setInspected(event) })),
    [tail.events],
  );

  const jumpToLatest = () => {
    setSession((s) => s + 1);
    setPaused(false);
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <PageHeader
        title="Events"
        description="Everything the workspace does, as webhook receivers get it."
        actions={
          <>
            <span role="status" className="text-sm text-muted-foreground">
              {paused ? "Paused" : tail.isError ? "Not updating" : "Live"}
            </span>
            <Button variant="outline" onClick={() => setPaused((p) => !p)} aria-pressed={paused}>
              {paused ? <PlayIcon aria-hidden="true" /> : <PauseIcon aria-hidden="true" />}
              {paused ? "Resume" : "Pause"}
            </Button>
            <Button variant="outline" onClick={jumpToLatest}>
              <ArrowUpToLineIcon aria-hidden="true" />
              Jump to latest
            </Button>
          </>
        }
      />
      <div className="flex min-h-0 flex-1 flex-col gap-4 overflow-y-auto p-4">
        <div className="flex flex-wrap items-end gap-3">
          <FormField label="Event type" className="flex-[1_1_12rem] sm:flex-none">
            {(control) => (
              <NativeSelect
                {...control}
                value={search.type ?? ""}
                onChange={(e) =>
                  navigate({ search: { type: e.target.value || undefined }, replace: true })
                }
              >
                <option value="">All types</option>
                <EventTypeOptions types={streamEventTypes} />
              </NativeSelect>
            )}
          </FormField>
          {tail.behind && (
            <p className="text-sm font-medium">
              Catching up with a burst of events; Jump to latest skips ahead.
            </p>
          )}
        </div>
        {tail.isError && (
          <LoadError
            title="The live tail stopped"
            error={tail.error}
            onRetry={() => void tail.refetch()}
          />
        )}
        <DataTable
          label="Events, newest first"
          fit="section"
          className="rounded-lg border border-border"
          columns={columns}
          rows={rows}
          rowKey={(r) => r.event.id}
          rowHeight={ROW_HEIGHT}
          loading={tail.isPending}
          loadingLabel="Loading events"
          isCurrent={(r) => r.event.id === inspected?.id}
          empty={
            !tail.isError && (
              <EmptyState icon={ActivityIcon} title="Waiting for events">
                {search.type
                  ? `No ${search.type} events yet. New ones appear here as they happen.`
                  : "New events appear here as they happen: change a file, or send a test from Webhooks."}
              </EmptyState>
            )
          }
        />
      </div>
      {inspected && <EventDrawer event={inspected} onClose={() => setInspected(null)} />}
    </div>
  );
}
