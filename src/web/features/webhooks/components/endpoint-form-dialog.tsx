import { useState } from "react";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogHeading } from "@/web/components/ui/dialog";
import { FormDialogFooter } from "@/web/components/ui/form-dialog-footer";
import { Skeleton } from "@/web/components/ui/skeleton";
import { TextField } from "@/web/components/ui/text-field";
import { useEventCatalogueQuery } from "@/web/features/webhooks/api/list-event-catalogue";
import { describeError } from "@/web/lib/api-client";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { EventPicker } from "./event-picker";

export interface EndpointDraft {
  url: string;
  description: string | null;
  events: string[];
}

function urlProblem(url: string): string | undefined {
  try {
    const u = new URL(url);
    if (u.protocol !== "http:" && u.protocol !== "https:") return "Use an http or https URL.";
    return undefined;
  } catch {
    return "Enter an absolute URL, like https://example.com/hooks.";
  }
}

const fields = ["url", "description", "events"] as const;

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
  const submit = useAsyncSubmit({
    fields,
    validate: () => ({
      url: urlProblem(url.trim()),
      events: events.length === 0 ? "Choose at least one event, or all events." : undefined,
    }),
    run: () => onSubmit({ url: url.trim(), description: description.trim() || null, events }),
    onSuccess: onClose,
  });
  const { problems, pending } = submit;

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <form onSubmit={submit.onSubmit} className="grid gap-4" noValidate>
          <DialogHeading title={endpoint ? "Edit endpoint" : "Add an endpoint"}>
            Consign POSTs each chosen event to this URL, signed with the endpoint's secret.
          </DialogHeading>
          <TextField
            label="Endpoint URL"
            error={problems.url}
            type="url"
            value={url}
            onValueChange={setUrl}
            placeholder="https://example.com/hooks/consign"
            autoFocus
          />
          <TextField
            label="Description (optional)"
            error={problems.description}
            value={description}
            maxLength={200}
            onValueChange={setDescription}
          />
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
              error={problems.events}
            />
          )}
          <FormDialogFooter
            error={problems.form}
            pending={pending}
            onCancel={onClose}
            label={endpoint ? "Save changes" : "Add endpoint"}
            busyLabel="Saving…"
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}
