import { RotateCwIcon } from "lucide-react";
import { formatDateTime } from "@/browser/format";
import type { DeliveryAttempt, WebhookDeliveryDetail } from "@/contract/webhooks";
import { CopyButton } from "@/web/components/copy-button";
import { Alert, AlertDescription } from "@/web/components/ui/alert";
import { Badge } from "@/web/components/ui/badge";
import { Button } from "@/web/components/ui/button";
import { Sheet, SheetContent, SheetDescription, SheetTitle } from "@/web/components/ui/sheet";
import { Skeleton } from "@/web/components/ui/skeleton";
import { useDeliveryQuery } from "@/web/features/webhooks/api/get-delivery";
import { useRetryDeliveriesMutation } from "@/web/features/webhooks/api/retry-delivery";
import { deliveryTiming } from "@/web/features/webhooks/delivery-timing";
import { describeError } from "@/web/lib/api-client";
import { useNow } from "@/web/lib/use-now";
import { toast } from "@/web/stores/toast-store";
import { DeliveryStatusBadge } from "./delivery-status";

/** Pretty-prints JSON when it parses; the raw text otherwise. Always rendered as text. */
function formatJson(raw: string): string {
  try {
    return JSON.stringify(JSON.parse(raw), null, 2);
  } catch {
    return raw;
  }
}

function Headers({ headers, label }: { headers: Record<string, string>; label: string }) {
  return (
    <dl aria-label={label} className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-xs">
      {Object.entries(headers).map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="font-mono text-muted-foreground">{name}</dt>
          <dd className="break-all font-mono">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function Attempt({ attempt }: { attempt: DeliveryAttempt }) {
  const ok = attempt.statusCode !== null && attempt.statusCode >= 200 && attempt.statusCode < 300;
  return (
    <li className="grid gap-1 rounded-md border border-border p-3 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-medium">Attempt {attempt.attempt}</span>
        {attempt.manual && <Badge>Manual</Badge>}
        <Badge tone={ok ? "success" : "danger"}>
          {attempt.statusCode === null ? "No response" : `HTTP ${attempt.statusCode}`}
        </Badge>
        <span className="text-muted-foreground">{attempt.durationMs} ms</span>
        <span className="ml-auto text-xs text-muted-foreground">
          {formatDateTime(attempt.startedAt)}
        </span>
      </div>
      {attempt.error && <p className="text-destructive-text">{attempt.error}</p>}
      {attempt.responseBody && (
        <details>
          <summary className="cursor-pointer text-xs text-muted-foreground">
            Response body{attempt.responseTruncated ? " (first 4 KB)" : ""}
          </summary>
          <pre className="mt-1 max-h-40 overflow-auto whitespace-pre-wrap break-all rounded bg-muted p-2 font-mono text-xs">
            {attempt.responseBody}
          </pre>
        </details>
      )}
    </li>
  );
}

function Detail({
  detail,
  webhookId,
  held,
}: {
  detail: WebhookDeliveryDetail;
  webhookId: string;
  held: boolean;
}) {
  const now = useNow();
  const timing = deliveryTiming(detail, held ? "disabled" : "active", now);
  const retry = useRetryDeliveriesMutation();
  const body = formatJson(detail.request.body);
  const retryNow = () =>
    !retry.isPending &&
    retry.mutate(
      { id: webhookId, deliveryIds: [detail.id] },
      {
        onSuccess: ([after]) => {
          if (!after) return;
          // A service without the `retried` member always attempts.
          if (after.retried === false) {
            toast({ title: "An attempt is already in progress" });
            return;
          }
          // The latest attempt's outcome, not the status: a resend of a delivered delivery that
          // fails leaves it delivered.
          const ok = after.lastError === null;
          toast({
            title: ok ? "Delivered" : "The attempt failed",
            description: after.lastError ?? undefined,
            tone: ok ? "default" : "error",
          });
        },
        onError: (error) =>
          toast({ title: "Could not retry", description: describeError(error), tone: "error" }),
      },
    );
  return (
    <>
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <DeliveryStatusBadge status={detail.status} held={timing.kind === "held"} />
        <span className="font-mono">{detail.type}</span>
        <span className="text-muted-foreground">
          {detail.attempts} {detail.attempts === 1 ? "attempt" : "attempts"}
        </span>
      </div>
      {timing.kind === "held" && (
        <p className="text-sm">
          <strong>Held.</strong> {timing.reason}
        </p>
      )}
      {timing.kind === "due" && (
        <p className="text-sm" aria-live="off">
          Next attempt <strong>{timing.countdown}</strong> ({formatDateTime(timing.at)})
        </p>
      )}
      {detail.status === "delivered" && (
        <p className="text-sm text-muted-foreground">
          Delivered {formatDateTime(detail.deliveredAt)}
        </p>
      )}
      {/* Busy, not disabled: a disabled button would drop keyboard focus out of the drawer. */}
      <div>
        <Button onClick={retryNow} aria-disabled={retry.isPending}>
          <RotateCwIcon
            aria-hidden="true"
            className={retry.isPending ? "animate-spin" : undefined}
          />
          {retry.isPending ? "Retrying…" : "Retry now"}
        </Button>
      </div>
      <section aria-labelledby="delivery-attempts" className="grid gap-2">
        <h3 id="delivery-attempts" className="text-sm font-medium">
          Attempts
        </h3>
        {detail.attemptLog.length === 0 ? (
          <p className="text-sm text-muted-foreground">Not attempted yet.</p>
        ) : (
          <ol className="grid gap-2">
            {detail.attemptLog.map((a) => (
              <Attempt key={`${a.attempt}-${a.startedAt}`} attempt={a} />
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="delivery-request" className="grid gap-2">
        <div className="flex items-center justify-between gap-2">
          <h3 id="delivery-request" className="text-sm font-medium">
            Request body
          </h3>
          <CopyButton text={detail.request.body} label="Copy the raw request body" />
        </div>
        <p className="break-all font-mono text-xs text-muted-foreground">
          POST {detail.request.url}
        </p>
        <pre
          // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable code must be reachable by keyboard
          tabIndex={0}
          className="max-h-80 overflow-auto rounded-md border border-border bg-muted p-3 font-mono text-xs"
        >
          {body}
        </pre>
      </section>
      <section aria-labelledby="delivery-headers" className="grid gap-2">
        <h3 id="delivery-headers" className="text-sm font-medium">
          Request headers
        </h3>
        <Headers headers={detail.request.headers} label="Request headers" />
      </section>
    </>
  );
}

export function DeliveryDrawer({
  workspaceId,
  webhookId,
  deliveryId,
  held,
  onClose,
}: {
  workspaceId: string;
  webhookId: string;
  deliveryId: string;
  /** The endpoint is disabled: a pending delivery waits for it, not for a time. */
  held: boolean;
  onClose(): void;
}) {
  const detail = useDeliveryQuery(workspaceId, webhookId, deliveryId);
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent>
        <SheetTitle>Delivery</SheetTitle>
        <SheetDescription className="break-all font-mono">{deliveryId}</SheetDescription>
        {detail.isPending ? (
          <div
            className="grid gap-2"
            role="status"
            aria-busy="true"
            aria-label="Loading the delivery"
          >
            <Skeleton className="h-6 w-48" />
            <Skeleton className="h-24" />
            <Skeleton className="h-48" />
          </div>
        ) : detail.isError ? (
          <Alert tone="danger">
            <AlertDescription className="grid gap-2 text-foreground">
              <span>{describeError(detail.error)}</span>
              <span className="flex gap-2">
                <Button size="sm" variant="outline" onClick={() => detail.refetch()}>
                  Try again
                </Button>
                <Button size="sm" variant="ghost" onClick={onClose}>
                  Close
                </Button>
              </span>
            </AlertDescription>
          </Alert>
        ) : (
          <Detail detail={detail.data} webhookId={webhookId} held={held} />
        )}
      </SheetContent>
    </Sheet>
  );
}
