import { useNavigate } from "@tanstack/react-router";
import { ActivityIcon, ArrowUpToLineIcon, PauseIcon, PlayIcon } from "lucide-react";
import { useId, useState } from "react";
import type { Event } from "@/contract/events";
import { streamEventTypes } from "@/contract/rules";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Label } from "@/web/components/ui/label";
import { NativeSelect } from "@/web/components/ui/native-select";
import { SkeletonRows } from "@/web/components/ui/skeleton";
import { formatDateTime } from "@/web/lib/format";
import { useEventTailQuery } from "./api/tail-events";
import { EventDrawer } from "./components/event-drawer";
import type { EventsSearch } from "./events-search";

/** One line of context per event, from the members most types carry. */
function summary(event: Event): string {
  const d = event.data as Record<string, unknown>;
  const member = d.member as { email?: string } | undefined;
  const parts = [d.message, d.path, d.title, d.folder, member?.email, d.shareId, d.transferId];
  return parts.find((p): p is string => typeof p === "string") ?? "";
}

export function EventsPage({ workspaceId, search }: { workspaceId: string; search: EventsSearch }) {
  const navigate = useNavigate({ from: "/events" });
  const [paused, setPaused] = useState(false);
  const [session, setSession] = useState(0);
  const [inspected, setInspected] = useState<Event | null>(null);
  const filterId = useId();
  const tail = useEventTailQuery(workspaceId, { type: search.type, paused, session });
  const newestFirst = [...tail.events].reverse();

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
      <div className="flex min-h-0 flex-1 flex-col gap-4 p-4">
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1">
            <Label htmlFor={filterId}>Event type</Label>
            <NativeSelect
              id={filterId}
              value={search.type ?? ""}
              onChange={(e) =>
                navigate({ search: { type: e.target.value || undefined }, replace: true })
              }
            >
              <option value="">All types</option>
              {streamEventTypes.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </NativeSelect>
          </div>
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
        {tail.isPending ? (
          <SkeletonRows label="Loading events" rows={5} rowClassName="h-10" />
        ) : newestFirst.length === 0 ? (
          !tail.isError && (
            <EmptyState icon={ActivityIcon} title="Waiting for events">
              {search.type
                ? `No ${search.type} events yet. New ones appear here as they happen.`
                : "New events appear here as they happen. Send a test from Webhooks to see one."}
            </EmptyState>
          )
        ) : (
          <ol
            aria-label="Events, newest first"
            className="min-h-0 flex-1 overflow-auto rounded-lg border border-border"
          >
            {newestFirst.map((event) => (
              <li key={event.id} className="border-b border-border last:border-b-0">
                <button
                  type="button"
                  onClick={() => setInspected(event)}
                  className="grid w-full grid-cols-[minmax(10rem,14rem)_minmax(0,1fr)_auto] items-center gap-3 px-3 py-2 text-left text-sm hover:bg-accent focus-visible:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-ring"
                >
                  <Badge className="justify-self-start font-mono">{event.type}</Badge>
                  <span className="truncate text-muted-foreground">{summary(event)}</span>
                  <span className="grid justify-items-end text-xs text-muted-foreground">
                    <span>{formatDateTime(event.createdAt)}</span>
                    <span className="font-mono">{event.id}</span>
                  </span>
                </button>
              </li>
            ))}
          </ol>
        )}
      </div>
      {inspected && <EventDrawer event={inspected} onClose={() => setInspected(null)} />}
    </div>
  );
}
