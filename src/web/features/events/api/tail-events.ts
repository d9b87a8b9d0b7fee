import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { Event, EventsPage } from "@/contract/events";
import { apiRequest, workspacePath } from "@/web/lib/api-client";
import { eventsKeys } from "./events-keys";
import { tailPolling } from "./tail-polling";

const PAGE = 200;
/** The tail keeps this many events in memory; older ones scroll off. */
export const TAIL_KEEP = 1_000;

/**
 * A live tail of the event stream: starts at the newest events (`latest=1`), then polls with
 * `after` = the last cursor. The cursor lives in a ref so that each poll asks for what is new
 * since the previous one, whichever render started it.
 */
export function useEventTailQuery(
  workspaceId: string,
  { type, paused, session }: { type?: string; paused: boolean; session: number },
) {
  const cursor = useRef<string | null>(null);
  const [events, setEvents] = useState<Event[]>([]);
  // Reset during render, not in an effect: the new session's first poll starts before effects
  // run and must already ask for the head (`latest`), whose page then replaces the list.
  const sessionKey = JSON.stringify([workspaceId, type ?? null, session]);
  const currentSession = useRef(sessionKey);
  if (currentSession.current !== sessionKey) {
    currentSession.current = sessionKey;
    cursor.current = null;
  }

  const query = useQuery({
    queryKey: eventsKeys.tail(workspaceId, type, session),
    queryFn: async ({ signal }) => {
      const startedIn = sessionKey;
      const after = cursor.current;
      const page = await apiRequest<EventsPage>(workspacePath("/events"), {
        query: {
          after: after ?? undefined,
          latest: after ? undefined : 1,
          types: type,
          limit: PAGE,
        },
        signal,
      });
      // A poll that outlived its session (a filter change) must not move the new one's cursor.
      if (currentSession.current === startedIn) cursor.current = page.next ?? after;
      return { ...page, first: after === null };
    },
    ...tailPolling(paused),
    structuralSharing: false,
    gcTime: 0,
  });

  const page = query.data;
  useEffect(() => {
    if (!page || (page.events.length === 0 && !page.first)) return;
    setEvents((prev) => {
      const base = page.first ? [] : prev;
      const seen = new Set(base.map((e) => e.id));
      const fresh = page.events.filter((e) => !seen.has(e.id));
      return [...base, ...fresh].slice(-TAIL_KEEP);
    });
  }, [page]);

  return { ...query, events, behind: page?.hasMore ?? false };
}
