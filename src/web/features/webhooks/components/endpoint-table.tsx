import { Link } from "@tanstack/react-router";
import { DISABLE_AFTER_FAILURES } from "@/contract/rules";
import type { WebhookEndpoint } from "@/contract/webhooks";
import { Badge } from "@/web/components/ui/badge";
import { formatDateTime } from "@/web/lib/format";
import { EndpointActions } from "./endpoint-actions";
import { ToneBadge } from "./tone-badge";
import { formatCountdown, useNow } from "./use-now";

export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return endpoint.status === "active" ? (
    <ToneBadge tone="success">Active</ToneBadge>
  ) : (
    <ToneBadge tone="danger">Disabled</ToneBadge>
  );
}

/** "7 of 20": consecutive failed attempts against the count that disables the endpoint. */
export function FailureCount({ count }: { count: number }) {
  return (
    <span className={count > 0 ? "font-medium" : "text-muted-foreground"}>
      {count} of {DISABLE_AFTER_FAILURES}
    </span>
  );
}

export function EndpointTable({
  workspaceId,
  endpoints,
}: {
  workspaceId: string;
  endpoints: WebhookEndpoint[];
}) {
  const now = useNow();
  return (
    <div className="overflow-x-auto rounded-lg border border-border">
      <table className="w-full text-sm">
        <caption className="sr-only">Webhook endpoints</caption>
        <thead className="bg-muted/50 text-left text-xs text-muted-foreground">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Endpoint
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Events
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Status
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Failures
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Last delivery
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Next retry
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {endpoints.map((endpoint) => (
            <tr key={endpoint.id} className="border-t border-border align-top">
              <td className="max-w-xs px-3 py-2">
                <Link
                  to="/webhooks/$webhookId"
                  params={{ webhookId: endpoint.id }}
                  className="break-all font-mono text-link hover:underline"
                >
                  {endpoint.url}
                </Link>
                {endpoint.description && (
                  <p className="text-muted-foreground">{endpoint.description}</p>
                )}
              </td>
              <td className="px-3 py-2">
                <ul className="flex max-w-xs flex-wrap gap-1">
                  {endpoint.events.map((e) => (
                    <li key={e}>
                      <Badge className="font-mono">{e === "*" ? "* (all)" : e}</Badge>
                    </li>
                  ))}
                </ul>
              </td>
              <td className="px-3 py-2">
                <EndpointStatus endpoint={endpoint} />
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                <FailureCount count={endpoint.failureCount} />
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                {formatDateTime(endpoint.lastDeliveryAt)}
              </td>
              <td className="whitespace-nowrap px-3 py-2">
                {endpoint.nextAttemptAt ? formatCountdown(endpoint.nextAttemptAt, now) : "—"}
              </td>
              <td className="px-3 py-2">
                <EndpointActions workspaceId={workspaceId} endpoint={endpoint} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
