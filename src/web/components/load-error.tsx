import type { ReactNode } from "react";
import { describeError } from "@/web/lib/api-client";
import { Alert, AlertDescription, AlertTitle } from "./ui/alert";
import { Button } from "./ui/button";

/** A query that failed: what could not load, the service's reason, and a way out. */
export function LoadError({
  title,
  error,
  onRetry,
  children,
}: {
  title: ReactNode;
  error: unknown;
  onRetry(): void;
  /** More ways out, beside Try again. */
  children?: ReactNode;
}) {
  return (
    <Alert tone="danger">
      <div className="grid gap-2">
        <AlertTitle>{title}</AlertTitle>
        <AlertDescription>{describeError(error)}</AlertDescription>
        <div className="flex gap-2">
          <Button size="sm" variant="outline" onClick={onRetry}>
            Try again
          </Button>
          {children}
        </div>
      </div>
    </Alert>
  );
}

/**
 * A later page that failed, under the rows already shown (they stay): the reason and Try
 * again. A list shows it instead of asking again by itself at its end.
 */
export function LoadMoreError({
  what,
  error,
  onRetry,
}: {
  /** "shares", "uploads": what more could not be loaded. */
  what: string;
  error: unknown;
  onRetry(): void;
}) {
  return (
    <p role="alert" className="p-3 text-center text-sm text-destructive-text">
      Could not load more {what}: {describeError(error)}{" "}
      <Button variant="link" className="h-auto p-0" onClick={onRetry}>
        Try again
      </Button>
    </p>
  );
}
