import { type FormEvent, useId, useState } from "react";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useEventCatalogueQuery } from "@/web/features/webhooks/api/list-event-catalogue";
import { ApiError, describeError } from "@/web/lib/api-client";
import { EventPicker } from "./event-picker";

export interface EndpointDraft {
  url: string;
  description: string | null;
  events: string[];
}

function urlProblem(url: string): string | null {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return "Use an http or https URL.";
    return null;
  } catch {
    return "Enter an absolute URL, like https://example.com/hooks.";
  }
}

/** Create (no `endpoint`) or edit an endpoint's URL, description and events. */
export function EndpointFormDialog({
  workspaceId,
  endpoint,
  onSubmit,
  onClose,
}: {
  workspaceId: string;
  endpoint?: WebhookEndpoint;
  onSubmit(draft: EndpointDraft): Promise<unknown>;
  onClose(): void;
}) {
  const catalogue = useEventCatalogueQuery(workspaceId);
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [events, setEvents] = useState<string[]>(endpoint?.events ?? []);
  const [problems, setProblems] = useState<{ url?: string; events?: string; form?: string }>({});
  const [pending, setPending] = useState(false);
  const ids = { url: useId(), urlError: useId(), description: useId(), eventsError: useId() };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const found = {
      url: urlProblem(url.trim()) ?? undefined,
      events: events.length === 0 ? "Choose at least one event, or all events." : undefined,
    };
    setProblems(found);
    if (found.url || found.events) return;
    setPending(true);
    try {
      await onSubmit({ url: url.trim(), description: description.trim() || null, events });
      onClose();
    } catch (error) {
      const issues = error instanceof ApiError ? error.fieldIssues : [];
      const on = (field: string) => issues.find((i) => i.field.startsWith(field))?.message;
      setProblems({
        url: on("url"),
        events: on("events"),
        form: on("url") || on("events") ? undefined : describeError(error),
      });
      setPending(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="max-w-xl">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{endpoint ? "Edit endpoint" : "Add an endpoint"}</DialogTitle>
            <DialogDescription>
              Consign POSTs each chosen event to this URL, signed with the endpoint's secret.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.url}>Endpoint URL</Label>
            <Input
              id={ids.url}
              type="url"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              placeholder="https://example.com/hooks/consign"
              aria-invalid={!!problems.url || undefined}
              aria-describedby={problems.url ? ids.urlError : undefined}
              autoFocus
            />
            {problems.url && (
              <p id={ids.urlError} className="text-sm text-destructive-text">
                {problems.url}
              </p>
            )}
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor={ids.description}>Description (optional)</Label>
            <Input
              id={ids.description}
              value={description}
              maxLength={200}
              onChange={(e) => setDescription(e.target.value)}
            />
          </div>
          {catalogue.isPending ? (
            <Skeleton className="h-48" />
          ) : catalogue.isError ? (
            <div role="alert" className="text-sm text-destructive-text">
              Could not load the event types: {describeError(catalogue.error)}{" "}
              <Button variant="link" className="h-auto p-0" onClick={() => catalogue.refetch()}>
                Try again
              </Button>
            </div>
          ) : (
            <EventPicker
              available={catalogue.data.events}
              value={events}
              onChange={setEvents}
              invalid={!!problems.events}
              describedBy={problems.events ? ids.eventsError : undefined}
            />
          )}
          {problems.events && (
            <p id={ids.eventsError} className="text-sm text-destructive-text">
              {problems.events}
            </p>
          )}
          {problems.form && (
            <p role="alert" className="text-sm text-destructive-text">
              {problems.form}
            </p>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={onClose} disabled={pending}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Saving…" : endpoint ? "Save changes" : "Add endpoint"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
