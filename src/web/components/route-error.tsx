import { useQueryErrorResetBoundary } from "@tanstack/react-query";
import { type ErrorComponentProps, Link, useRouter } from "@tanstack/react-router";
import { AlertTriangleIcon } from "lucide-react";
import { ApiError } from "@/browser/api-error";
import { describeError } from "@/web/lib/api-client";
import { isChunkLoadError } from "@/web/lib/chunk-load";
import { Button } from "./ui/button";

function headline(error: unknown): string {
  if (isChunkLoadError(error)) return "This page could not be loaded";
  if (error instanceof ApiError && error.status === 403) return "Not allowed with this key";
  if (error instanceof ApiError && error.status === 404) return "Not found";
  return "Something went wrong";
}

/**
 * What a page shows when loading it failed: the service's reason and a way out. It is the
 * router's default error component, so it ships with the first download and can still show
 * when the page's own code (a chunk) could not be fetched; Retry then imports it again.
 */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryReset = useQueryErrorResetBoundary();
  const chunk = isChunkLoadError(error);
  return (
    <div role="alert" className="mx-auto mt-16 grid max-w-lg gap-4 p-6 text-center">
      <AlertTriangleIcon className="mx-auto size-8 text-warning" aria-hidden="true" />
      <h1 className="text-lg font-semibold">{headline(error)}</h1>
      <p className="text-sm text-muted-foreground">
        {chunk
          ? "The console could not download this page's code: the network or the service may be down."
          : describeError(error)}
      </p>
      {error instanceof ApiError && error.requestId && (
        <p className="text-xs text-muted-foreground">Request id: {error.requestId}</p>
      )}
      <div className="flex justify-center gap-2">
        <Button
          onClick={() => {
            queryReset.reset();
            reset();
            void router.invalidate();
          }}
        >
          {chunk ? "Retry" : "Try again"}
        </Button>
        <Button variant="outline" asChild>
          <Link to="/files" search={{}}>
            Go to Files
          </Link>
        </Button>
      </div>
    </div>
  );
}
