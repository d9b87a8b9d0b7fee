import { Link } from "@tanstack/react-router";
import { CompassIcon } from "lucide-react";

/** An address the console does not know, inside the app shell so the areas stay in reach. */
export function NotFoundPage() {
  return (
    <div className="mx-auto mt-16 grid max-w-md justify-items-center gap-2 p-6 text-center">
      <CompassIcon className="size-8 text-muted-foreground" aria-hidden="true" />
      <h1 className="font-medium">Page not found</h1>
      <p className="text-sm text-muted-foreground">
        The console has no page at this address. Check it, or go on from one of the areas.
      </p>
      <Link to="/files" search={{}} className="mt-3 text-sm text-link underline">
        Go to Files
      </Link>
    </div>
  );
}
