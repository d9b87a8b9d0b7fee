import { createFileRoute } from "@tanstack/react-router";
import { NotFoundPage } from "@/web/components/not-found-page";

// Any address no other route matches: said inside the console, with the areas in reach.
export const Route = createFileRoute("/_app/$")({
  component: NotFoundPage,
});
