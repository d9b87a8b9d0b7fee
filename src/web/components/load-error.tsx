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
