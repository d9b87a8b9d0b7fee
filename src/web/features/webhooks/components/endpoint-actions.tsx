import { useNavigate } from "@tanstack/react-router";
import { MoreHorizontalIcon } from "lucide-react";
import { useState } from "react";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { Button } from "@/web/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/web/components/ui/dropdown-menu";
import { useDeleteWebhookMutation } from "@/web/features/webhooks/api/delete-webhook";
import { useRotateSecretMutation } from "@/web/features/webhooks/api/rotate-secret";
import { useTestWebhookMutation } from "@/web/features/webhooks/api/test-webhook";
import { useUpdateWebhookMutation } from "@/web/features/webhooks/api/update-webhook";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import { EndpointFormDialog } from "./endpoint-form-dialog";
import { SecretDialog } from "./secret-dialog";

const NOT_SENT = "The endpoint is disabled: re-enable it to send a test.";

type Open = "edit" | "rotate" | "delete" | { secret: string } | null;

/** Every operation on one endpoint, behind one menu; irreversible ones ask first. */
export function EndpointActions({
  workspaceId,
  endpoint,
  afterDelete,
}: {
  workspaceId: string;
  endpoint: WebhookEndpoint;
  /** Where to go once the endpoint is gone (its own page cannot stay open). */
  afterDelete?: "list";
}) {
  const [open, setOpen] = useState<Open>(null);
  const navigate = useNavigate();
  const update = useUpdateWebhookMutation();
  const rotate = useRotateSecretMutation();
  const remove = useDeleteWebhookMutation();
  const test = useTestWebhookMutation();
  const disabled = endpoint.status === "disabled";

  const sendTest = () => {
    // Not sent, and said so: the service would record the event and send nothing.
    if (disabled) {
      toast({ title: "Test not sent", description: NOT_SENT });
      return;
    }
    test.mutate(endpoint.id, {
      onSuccess: (result) =>
        toast({
          title: result.deliveryId ? "Test event sent" : "Test not sent",
          description: result.deliveryId
            ? "Its delivery is in the endpoint's log."
            : "The endpoint is disabled: the event was recorded but not sent.",
        }),
      onError: (error) =>
        toast({ title: "Could not send a test", description: describeError(error), tone: "error" }),
    });
  };
  const setStatus = (status: "active" | "disabled") =>
    update.mutate(
      { id: endpoint.id, body: { status } },
      {
        onSuccess: () =>
          toast({ title: status === "active" ? "Endpoint enabled" : "Endpoint disabled" }),
        onError: (error) =>
          toast({
            title: "Could not change the status",
            description: describeError(error),
            tone: "error",
          }),
      },
    );

  return (
    <>
      {/* Above a row's stretched link (DataTable's rowActionClass), so its buttons stay usable. */}
      <div className="relative z-[1] flex items-center justify-end gap-1">
        {/* aria-disabled, not disabled: it stays focusable and its title can be read. */}
        <Button
          variant="outline"
          size="sm"
          onClick={sendTest}
          disabled={test.isPending}
          aria-disabled={disabled || undefined}
          title={disabled ? NOT_SENT : undefined}
          className="aria-disabled:cursor-not-allowed aria-disabled:opacity-50"
        >
          {test.isPending ? "Sending…" : "Send test"}
        </Button>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`More actions for ${endpoint.url}`}>
              <MoreHorizontalIcon aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => setOpen("edit")}>Edit</DropdownMenuItem>
            <DropdownMenuItem onSelect={() => setOpen("rotate")}>Rotate secret…</DropdownMenuItem>
            <DropdownMenuItem onSelect={() => setStatus(disabled ? "active" : "disabled")}>
              {disabled ? "Enable" : "Disable"}
            </DropdownMenuItem>
            <DropdownMenuSeparator />
            <DropdownMenuItem onSelect={() => setOpen("delete")}>Delete…</DropdownMenuItem>
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {open === "edit" && (
        <EndpointFormDialog
          workspaceId={workspaceId}
          endpoint={endpoint}
          onSubmit={(draft) => update.mutateAsync({ id: endpoint.id, body: draft })}
          onClose={() => setOpen(null)}
        />
      )}
      {open === "rotate" && (
        <ConfirmDialog
          title="Rotate the signing secret?"
          description="The current secret stops signing at once: the next attempt is signed with the new one, and receivers must be updated. This cannot be undone."
          confirmLabel="Rotate secret"
          destructive
          onConfirm={async () => {
            const { secret } = await rotate.mutateAsync(endpoint.id);
            setOpen({ secret });
          }}
          // After a rotation `open` already holds the secret to reveal; only a cancel clears it.
          onClose={() => setOpen((o) => (o === "rotate" ? null : o))}
        />
      )}
      {open !== null && typeof open === "object" && (
        <SecretDialog
          secret={open.secret}
          url={endpoint.url}
          rotated
          onClose={() => setOpen(null)}
        />
      )}
      {open === "delete" && (
        <ConfirmDialog
          title="Delete this endpoint?"
          description={`${endpoint.url} stops receiving events, and its delivery log is deleted with it. This cannot be undone.`}
          confirmLabel="Delete endpoint"
          destructive
          onConfirm={async () => {
            await remove.mutateAsync(endpoint.id);
            toast({ title: "Endpoint deleted" });
            if (afterDelete === "list") await navigate({ to: "/webhooks" });
          }}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );
}
