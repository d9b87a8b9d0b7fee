import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { KeyRoundIcon, Loader2Icon } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { ApiError } from "@/browser/api-error";
import { apiKeyPattern } from "@/contract/rules";
import { Alert, AlertDescription } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { FormError, FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { describeError, NetworkError, UnexpectedResponseError } from "@/web/lib/api-client";
import { type Problems, useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useSessionStore } from "@/web/stores/session-store";
import { startSession } from "./api/start-session";
import { BlockedByPolicyError, type VerifyKeyResult, verifyKey } from "./api/verify-key";

const defaultBaseUrl = () => `${window.location.origin}/v1`;

type Field = "baseUrl" | "apiKey" | "workspaceId";
const fields = ["baseUrl", "apiKey", "workspaceId"] as const;

/** Puts a failed check on the field that can fix it: the address, the key or the workspace. */
function connectProblems(error: unknown, askedWorkspace: boolean): Problems<Field> {
  if (error instanceof BlockedByPolicyError) {
    return {
      baseUrl: `This console's Content-Security-Policy blocks calls to ${error.origin}. To use another service, add that origin to CSP_CONNECT_SRC where this console is served (and this console's origin to CORS_ORIGINS on that service).`,
    };
  }
  const webPage =
    error instanceof UnexpectedResponseError ||
    (error instanceof ApiError && error.code === "http_error" && error.status === 404);
  if (webPage) {
    return {
      baseUrl:
        "This is not a Consign service: the address answered with a web page, not the API. Check the base URL; it usually ends in /v1.",
    };
  }
  if (error instanceof NetworkError) {
    return {
      baseUrl:
        "Nothing answered at this address. Check it, that the service is running, and that it accepts calls from this console (CORS_ORIGINS).",
    };
  }
  if (error instanceof ApiError && error.status === 401) return { apiKey: describeError(error) };
  const workspaceRefused = error instanceof ApiError && [403, 404].includes(error.status);
  if (askedWorkspace && workspaceRefused) return { workspaceId: describeError(error) };
  return { form: describeError(error) };
}

export function ConnectPage({ redirect }: { redirect?: string }) {
  const signedOutReason = useSessionStore((s) => s.signedOutReason);
  const rememberId = useId();
  const form = useConnectForm(redirect);
  const { baseUrl, setBaseUrl, apiKey, setApiKey, workspaceId, setWorkspaceId } = form;
  const { askWorkspace, remember, setRemember, onSubmit, pending, problems } = form;

  return (
    <main className="flex min-h-full items-center justify-center bg-muted/40 p-4">
      <div className="w-full max-w-md rounded-xl border border-border bg-card p-6 shadow-sm sm:p-8">
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
          <FormField label="API base URL" error={problems.baseUrl}>
            {(control) => (
              <Input
                {...control}
                type="url"
                value={baseUrl}
                onChange={(e) => setBaseUrl(e.target.value)}
                required
              />
            )}
          </FormField>
          <FormField
            label="API key"
            error={problems.apiKey}
            hint={
              <>
                Create one with <code>npm run keys -- create --scopes all</code>.
              </>
            }
          >
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="off"
                placeholder="svc_sk_…"
                value={apiKey}
                onChange={(e) => setApiKey(e.target.value)}
                required
              />
            )}
          </FormField>
          {askWorkspace && (
            <FormField
              label="Workspace id"
              error={problems.workspaceId}
              hint="This service does not say which workspace a key belongs to."
            >
              {(control) => (
                <Input
                  {...control}
                  value={workspaceId}
                  onChange={(e) => setWorkspaceId(e.target.value)}
                  required
                />
              )}
            </FormField>
          )}
          <div className="flex items-center gap-2">
            {/* A native checkbox: this screen is on every first visit's path, Radix's is not needed here. */}
            <input
              id={rememberId}
              type="checkbox"
              checked={remember}
              onChange={(e) => setRemember(e.target.checked)}
              className="size-4 accent-primary"
            />
            <Label htmlFor={rememberId} className="font-normal">
              Remember on this device
            </Label>
          </div>
          <FormError>{problems.form}</FormError>
          <Button type="submit" disabled={pending}>
            {pending ? (
              <Loader2Icon className="animate-spin" aria-hidden="true" />
            ) : (
              <KeyRoundIcon aria-hidden="true" />
            )}
            {pending ? "Checking the key…" : "Connect"}
          </Button>
        </form>
      </div>
    </main>
  );
}

/**
 * The connect form's state and its check: the key (and, when the service cannot say, the
 * workspace) is verified before the session starts; a refusal lands on the field that can fix
 * it. A sign-in link's key the route could not use is checked once on arrival.
 */
function useConnectForm(redirect: string | undefined) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const pendingKey = useSessionStore((s) => s.pendingKey);
  const [baseUrl, setBaseUrl] = useState(defaultBaseUrl);
  const [apiKey, setApiKey] = useState(pendingKey ?? "");
  const [workspaceId, setWorkspaceId] = useState("");
  const [askWorkspace, setAskWorkspace] = useState(false);
  const [remember, setRemember] = useState(false);

  const { onSubmit, pending, problems, setProblems } = useAsyncSubmit({
    fields,
    validate() {
      const found: Problems<Field> = {};
      if (!URL.canParse(baseUrl.trim(), window.location.href)) {
        found.baseUrl = "Enter the service's address, like https://files.example.com/v1.";
      }
      if (!apiKeyPattern.test(apiKey.trim())) {
        found.apiKey = "An API key looks like svc_sk_ followed by at least 32 letters and digits.";
      }
      if (askWorkspace && !workspaceId.trim()) found.workspaceId = "Enter the workspace id.";
      return found;
    },
    // A refusal is an answer here, not a failure: it is placed on the field that can fix it.
    run: (): Promise<VerifyKeyResult | { status: "refused"; problems: Problems<Field> }> =>
      verifyKey({
        baseUrl: baseUrl.trim(),
        apiKey: apiKey.trim(),
        workspaceId: workspaceId.trim() || undefined,
      }).catch((error: unknown) => ({
        status: "refused",
        problems: connectProblems(error, askWorkspace),
      })),
    onSuccess(result) {
      if (result.status === "refused") {
        setProblems(result.problems);
        return;
      }
      if (result.status === "needs-workspace") {
        setAskWorkspace(true);
        return;
      }
      const session = {
        baseUrl: baseUrl.trim(),
        apiKey: apiKey.trim(),
        workspaceId: result.workspaceId,
        remember,
      };
      startSession(queryClient, session, result.keyInfo);
      void navigate({ to: redirect?.startsWith("/") ? redirect : "/files" });
    },
  });

  // A sign-in link's key that the route could not use (see startSessionFromLink) is checked
  // again here, so the person sees why.
  const autoSubmitted = useRef(false);
  useEffect(() => {
    if (pendingKey && !autoSubmitted.current) {
      autoSubmitted.current = true;
      useSessionStore.getState().setPendingKey(null);
      void onSubmit();
    }
  });
  return {
    baseUrl,
    setBaseUrl,
    apiKey,
    setApiKey,
    workspaceId,
    setWorkspaceId,
    askWorkspace,
    remember,
    setRemember,
    onSubmit,
    pending,
    problems,
  };
}
