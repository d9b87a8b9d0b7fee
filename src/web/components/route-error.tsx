import { useQueryErrorResetBoundary } from "@tanstack/react-query";
import { type ErrorComponentProps, Link, useRouter } from "@tanstack/react-router";
import { AlertTriangleIcon } from "lucide-react";
import { ApiError, describeError } from "@/web/lib/api-client";
import { Button } from "./ui/button";

/** What a page shows when loading it failed: the service's reason and a way out. */
export function RouteError({ error, reset }: ErrorComponentProps) {
  const router = useRouter();
  const queryReset = useQueryErrorResetBoundary();
  const forbidden = error instanceof ApiError && error.status === 403;
  const missing = error instanceof ApiError && error.status === 404;
  return (
    <div role="alert" className="mx-auto mt-16 grid max-w-lg gap-4 p-6 text-center">
      <AlertTriangleIcon className="mx-auto size-8 text-warning" aria-hidden="true" />
      <h1 className="text-lg font-semibold">
        {forbidden ? "Not allowed with this key" : missing ? "Not found" : "Something went wrong"}
      </h1>
      <p className="text-sm text-muted-foreground">{describeError(error)}</p>
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
          Try again
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
