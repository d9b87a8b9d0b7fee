import { createFileRoute, redirect } from "@tanstack/react-router";

// The review queue's address as the README names it: the queue is a view of /portals.
export const Route = createFileRoute("/_app/portals/review")({
  beforeLoad: ({ search }) => {
    throw redirect({ to: "/portals", search: { ...search, view: "review" }, replace: true });
  },
});
