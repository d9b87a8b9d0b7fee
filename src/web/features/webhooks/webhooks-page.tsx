import { useNavigate } from "@tanstack/react-router";
import { PlusIcon, WebhookIcon } from "lucide-react";
import { useState } from "react";
import { EmptyState } from "@/web/components/empty-state";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Button } from "@/web/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { useCreateWebhookMutation } from "./api/create-webhook";
import { useWebhooksQuery } from "./api/list-webhooks";
import { DisabledBanner } from "./components/disabled-banner";
import { EndpointFormDialog } from "./components/endpoint-form-dialog";
import { EndpointTable } from "./components/endpoint-table";
import { SecretDialog } from "./components/secret-dialog";
import { SignaturePanel } from "./components/signature-panel";
import type { WebhooksSearch } from "./webhooks-search";

export function WebhooksPage({
  workspaceId,
  search,
}: {
  workspaceId: string;
  search: WebhooksSearch;
}) {
  const navigate = useNavigate({ from: "/webhooks/" });
  const endpoints = useWebhooksQuery(workspaceId);
  const create = useCreateWebhookMutation();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<{ secret: string; url: string } | null>(null);
  const disabled = endpoints.data?.filter((e) => e.status === "disabled") ?? [];

  const addButton = (
    <Button onClick={() => setCreating(true)}>
      <PlusIcon aria-hidden="true" />
      Add endpoint
    </Button>
  );

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <PageHeader
        title="Webhooks"
        description="Endpoints that receive signed events, with every delivery recorded."
        actions={addButton}
      />
      <Tabs
        value={search.tab ?? "endpoints"}
        onValueChange={(tab) =>
          navigate({ search: { tab: tab === "signatures" ? "signatures" : undefined } })
        }
        className="grid gap-4 overflow-y-auto p-4"
      >
        <TabsList aria-label="Webhooks sections" className="justify-self-start">
          <TabsTrigger value="endpoints">Endpoints</TabsTrigger>
          <TabsTrigger value="signatures">Verify signatures</TabsTrigger>
        </TabsList>
        <TabsContent value="endpoints" className="grid gap-4">
          {endpoints.isError ? (
            <LoadError
              title="Could not load the endpoints"
              error={endpoints.error}
              onRetry={() => void endpoints.refetch()}
            />
          ) : (
            <>
              {disabled.map((endpoint) => (
                <section key={endpoint.id} aria-label={`Disabled: ${endpoint.url}`}>
                  <p className="mb-1 break-all font-mono text-sm">{endpoint.url}</p>
                  <DisabledBanner workspaceId={workspaceId} endpoint={endpoint} />
                </section>
              ))}
              <EndpointTable
                workspaceId={workspaceId}
                endpoints={endpoints.data ?? []}
                loading={endpoints.isPending}
                empty={
                  <EmptyState icon={WebhookIcon} title="No endpoints yet" action={addButton}>
                    Add a URL and Consign will POST the events you choose to it, signed, retried for
                    up to 14 hours when it fails.
                  </EmptyState>
                }
              />
            </>
          )}
        </TabsContent>
        <TabsContent value="signatures">
          <SignaturePanel />
        </TabsContent>
      </Tabs>
      {creating && (
        <EndpointFormDialog
          workspaceId={workspaceId}
          onSubmit={async (draft) => {
            const endpoint = await create.mutateAsync(draft);
            setCreated({ secret: endpoint.secret, url: endpoint.url });
          }}
          onClose={() => setCreating(false)}
        />
      )}
      {created && (
        <SecretDialog
          secret={created.secret}
          url={created.url}
          rotated={false}
          onClose={() => setCreated(null)}
        />
      )}
    </div>
  );
}
