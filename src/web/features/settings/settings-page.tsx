import { useEffect, useState } from "react";
import type { WorkspaceSettings } from "@/contract/settings";
import { WORKSPACE_NAME_MAX } from "@/contract/settings-rules";
import { LoadError } from "@/web/components/load-error";
import { PageHeader } from "@/web/components/page-header";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { TextField } from "@/web/components/ui/text-field";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import { useSettingsQuery } from "./api/get-settings";
import { useUpdateSettingsMutation } from "./api/update-settings";
import { LogoField } from "./components/logo-field";

/** The workspace's name and logo, as its receipts and delivery notes print them. */
export function SettingsPage({ workspaceId }: { workspaceId: string }) {
  const { data, error, isPending, refetch } = useSettingsQuery(workspaceId);
  return (
    <div className="flex min-h-0 flex-1 flex-col overflow-auto">
      <PageHeader
        title="Settings"
        description="How the workspace signs the documents it sends: receipts and delivery notes"
      />
      <div className="grid max-w-2xl gap-8 p-4">
        {error ? (
          <LoadError
            title="Could not load the settings"
            error={error}
            onRetry={() => void refetch()}
          />
        ) : isPending ? (
          <div
            className="grid gap-3"
            role="status"
            aria-busy="true"
            aria-label="Loading the settings"
          >
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-24 w-full" />
          </div>
        ) : (
          <>
            <NameForm settings={data} />
            <LogoField workspaceId={workspaceId} settings={data} />
          </>
        )}
      </div>
    </div>
  );
}

function NameForm({ settings }: { settings: WorkspaceSettings }) {
  const [name, setName] = useState(settings.name);
  useEffect(() => setName(settings.name), [settings.name]);
  const update = useUpdateSettingsMutation();
  const trimmed = name.trim();
  const problem =
    trimmed.length === 0
      ? "Give the workspace a name"
      : trimmed.length > WORKSPACE_NAME_MAX
        ? `At most ${WORKSPACE_NAME_MAX} characters`
        : null;
  const save = (e: React.FormEvent) => {
    e.preventDefault();
    if (problem) return;
    update.mutate(
      { name: trimmed },
      {
        onSuccess: () => toast({ title: "Name saved" }),
        onError: (err) =>
          toast({
            title: "Could not save the name",
            description: describeError(err),
            tone: "error",
          }),
      },
    );
  };
  return (
    <form onSubmit={save} className="grid gap-3" aria-labelledby="settings-name">
      <h2 id="settings-name" className="font-medium">
        Workspace name
      </h2>
      <TextField
        label="Name"
        hint="Printed at the top of every page of a receipt and a delivery note."
        error={name !== settings.name ? problem : null}
        value={name}
        onValueChange={setName}
        maxLength={WORKSPACE_NAME_MAX + 20}
        autoComplete="organization"
      />
      <div>
        <Button
          type="submit"
          disabled={update.isPending || problem !== null || trimmed === settings.name}
        >
          {update.isPending ? "Saving…" : "Save name"}
        </Button>
      </div>
    </form>
  );
}
