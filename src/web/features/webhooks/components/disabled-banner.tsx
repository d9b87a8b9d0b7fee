import { AlertTriangleIcon } from "lucide-react";
import { formatDateTime } from "@/browser/format";
import { DISABLE_AFTER_FAILURES } from "@/contract/rules";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { Alert, AlertDescription, AlertTitle } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { useFailedSinceQuery } from "@/web/features/webhooks/api/list-deliveries";
import { useRetryDeliveriesMutation } from "@/web/features/webhooks/api/retry-delivery";
import { useUpdateWebhookMutation } from "@/web/features/webhooks/api/update-webhook";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";

/** Shown on a disabled endpoint, with a way to resend what failed since the last delivery. */
export function DisabledBanner({
  workspaceId,
  endpoint,
}: {
  workspaceId: string;
  endpoint: WebhookEndpoint;
}) {
  const update = useUpdateWebhookMutation();
  const retry = useRetryDeliveriesMutation();
  const failed = useFailedSinceQuery(workspaceId, endpoint.id).data ?? [];
  const since = failed[failed.length - 1]?.createdAt;

  const reenable = () =>
    update.mutate(
      { id: endpoint.id, body: { status: "active" } },
      {
        onSuccess: () =>
          toast({ title: "Endpoint re-enabled", description: "Held deliveries are due again." }),
        onError: (error) =>
          toast({ title: "Could not re-enable", description: describeError(error), tone: "error" }),
      },
    );
  const retryFailed = () =>
    retry.mutate(
      { id: endpoint.id, deliveryIds: failed.map((d) => d.id) },
      {
        onSuccess: (results) => {
          const delivered = results.filter((r) => r.status === "delivered").length;
          toast({ title: `${delivered} of ${results.length} deliveries got through` });
        },
        onError: (error) =>
          toast({ title: "Retrying stopped", description: describeError(error), tone: "error" }),
      },
    );

  return (
    <Alert tone="warning">
      <AlertTriangleIcon aria-hidden="true" className="text-warning" />
      <div className="grid flex-1 gap-2">
        <AlertTitle>This endpoint is disabled</AlertTitle>
        <AlertDescription>
          {endpoint.failureCount >= DISABLE_AFTER_FAILURES
            ? `It was turned off after ${DISABLE_AFTER_FAILURES} failed attempts in a row. `
            : ""}
          No attempts are made and pending deliveries are held until it is enabled again.
        </AlertDescription>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" onClick={reenable} disabled={update.isPending}>
            {update.isPending ? "Re-enabling…" : "Re-enable"}
          </Button>
          {since && (
            <Button size="sm" variant="outline" onClick={retryFailed} disabled={retry.isPending}>
              {retry.isPending
                ? `Retrying ${failed.length}…`
                : `Retry the failed deliveries since ${formatDateTime(since)}`}
            </Button>
          )}
        </div>
      </div>
    </Alert>
  );
}
