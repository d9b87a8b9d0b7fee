import { createFileRoute } from "@tanstack/react-router";
import { ConnectPage } from "@/web/features/auth/connect-page";

export const Route = createFileRoute("/connect")({
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({
    redirect: typeof search.redirect === "string" ? search.redirect : undefined,
  }),
  component: function Connect() {
    const { redirect } = Route.useSearch();
    return <ConnectPage redirect={redirect} />;
  },
});
