import { eventsPageSchema, eventsQuerySchema } from "@/contract/events";
import { apiRoute, json, workspaceParams } from "@/server/http/router";

export const listEventsRoute = apiRoute({
  operationId: "listEvents",
  method: "get",
  path: "/workspaces/{workspaceId}/events",
  tags: ["Events"],
  summary: "Poll the workspace event stream after a cursor",
  description:
    "Events in commit order (id order for events of one process), oldest first, at most `limit` (default 100, max 1000) per page. Pass `next` as `after` to continue; an empty page returns the same `next`. Events are kept 30 days. `types` filters by event type.",
  scopes: ["webhooks:manage"],
  request: { params: workspaceParams, query: eventsQuerySchema },
  responses: { 200: json(eventsPageSchema, "A page of events") },
});
