import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { KeyRoundIcon, Loader2Icon } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import { apiKeyPattern } from "@/contract/rules";
import { Alert, AlertDescription, AlertTitle } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { describeError } from "@/web/lib/api-client";
import { useSessionStore } from "@/web/stores/session-store";
import { authKeys } from "./api/auth-keys";
import { useVerifyKeyMutation } from "./api/verify-key";

const defaultBaseUrl = () => `${window.location.origin}/v1`;

export function ConnectPage({ redirect }: { redirect?: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signIn = useSessionStore((s) => s.signIn);
  const pendingKey = useSessionStore((s) => s.pendingKey);
  const signedOutReason = useSessionStore((s) => s.signedOutReason);
  const [baseUrl, setBaseUrl] = useState(defaultBaseUrl);
  const [apiKey, setApiKey] = useState(pendingKey ?? "");
  const [workspaceId, setWorkspaceId] = useState("");
  const [askWorkspace, setAskWorkspace] = useState(false);
  const [remember, setRemember] = useState(false);
  const [formatError, setFormatError] = useState<string | null>(null);
  const verify = useVerifyKeyMutation();
  const ids = { url: useId(), key: useId(), ws: useId(), remember: useId(), err: useId() };

  const submit = (key: string) => {
    const trimmed = key.trim();
    if (!apiKeyPattern.test(trimmed)) {
      setFormatError("An API key looks like svc_sk_ followed by at least 32 letters and digits.");
      return;
    }
    setFormatError(null);
    verify.mutate(
      { baseUrl: baseUrl.trim(), apiKey: trimmed, workspaceId: workspaceId.trim() || undefined },
      {
        onSuccess(result) {
          if (result.status === "needs-workspace") {
            setAskWorkspace(true);
            return;
          }
          const session = {
            baseUrl: baseUrl.trim(),
            apiKey: trimmed,
            workspaceId: result.workspaceId,
            remember,
          };
          if (result.keyInfo)
            queryClient.setQueryData(
              authKeys.keyInfo(session.baseUrl, trimmed.slice(-6)),
              result.keyInfo,
            );
          signIn(session);
          void navigate({ to: redirect?.startsWith("/") ? redirect : "/files" });
        },
      },
    );
  };

  // The sign-in link's key is checked at once, so opening the printed URL lands signed in.
  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (pendingKey && !autoSubmitted.current) {
      autoSubmitted.current = true;
      useSessionStore.getState().setPendingKey(null);
      submit(pendingKey);
    }
  });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    submit(apiKey);
  };
  const error = formatError ?? (verify.error ? describeError(verify.error) : null);

  return (
    <main className="flex min-h-full items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-md rounded-xl border border-border bg-card p-8 shadow-sm">
        <div className="mb-6 flex items-center gap-3">
          <img src="/favicon.svg" alt="" className="size-9" />
          <div>
            <h1 className="text-xl font-semibold">Connect to Consign</h1>
            <p className="text-sm text-muted-foreground">Sign in with a workspace API key.</p>
          </div>
        </div>
        {signedOutReason && (
          <Alert tone="warning" className="mb-4">
            <AlertDescription className="text-foreground">{signedOutReason}</AlertDescription>
          </Alert>
        )}
        <form className="grid gap-4" onSubmit={onSubmit} noValidate>
          <div className="grid gap-2">
            <Label htmlFor={ids.url}>API base URL</Label>
            <Input
              id={ids.url}
              type="url"
              value={baseUrl}
              onChange={(e) => setBaseUrl(e.target.value)}
              required
            />
          </div>
          <div className="grid gap-2">
            <Label htmlFor={ids.key}>API key</Label>
            <Input
              id={ids.key}
              type="password"
              autoComplete="off"
              placeholder="svc_sk_…"
              value={apiKey}
              onChange={(e) => setApiKey(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? ids.err : undefined}
              required
            />
            <p className="text-xs text-muted-foreground">
              Create one with <code>npm run keys -- create --scopes all</code>.
            </p>
          </div>
          {askWorkspace && (
            <div className="grid gap-2">
              <Label htmlFor={ids.ws}>Workspace id</Label>
              <Input
                id={ids.ws}
                value={workspaceId}
                onChange={(e) => setWorkspaceId(e.target.value)}
                required
              />
              <p className="text-xs text-muted-foreground">
                This service does not say which workspace a key belongs to.
              </p>
            </div>
          )}
          <div className="flex items-center gap-2">
            {/* A native checkbox: this screen is on every first visit's path, Radix's is not needed here. */}
            <input
              id={ids.remember}
              type="checkbox"
              checked={remember}
              onChange={(e) => setRemember(e.target.checked)}
              className="size-4 accent-primary"
            />
            <Label htmlFor={ids.remember} className="font-normal">
              Remember on this device
            </Label>
          </div>
          {error && (
            <Alert tone="danger" id={ids.err}>
              <div>
                <AlertTitle>Could not sign in</AlertTitle>
                <AlertDescription>{error}</AlertDescription>
              </div>
            </Alert>
          )}
          <Button type="submit" disabled={verify.isPending}>
            {verify.isPending ? (
              <Loader2Icon className="animate-spin" aria-hidden="true" />
            ) : (
              <KeyRoundIcon aria-hidden="true" />
            )}
            {verify.isPending ? "Checking the key…" : "Connect"}
          </Button>
        </form>
      </div>
    </main>
  );
}
