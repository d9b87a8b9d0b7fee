import { createFileRoute, redirect } from "@tanstack/react-router";
import { startSessionFromLink } from "@/web/features/auth/api/start-session";
import { ConnectPage } from "@/web/features/auth/connect-page";

export const Route = createFileRoute("/connect")({
  validateSearch: (search: Record<string, unknown>): { redirect?: string } => ({
    redirect: typeof search.redirect === "string" ? search.redirect : undefined,
  }),
  beforeLoad: async ({ context, search }) => {
    if (await startSessionFromLink(context.queryClient)) {
      throw redirect({ href: search.redirect?.startsWith("/") ? search.redirect : "/files" });
    }
  },
  component: function Connect() {
    const { redirect } = Route.useSearch();
    return <ConnectPage redirect={redirect} />;
  },
});
