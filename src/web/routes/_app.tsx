import { useQueryClient } from "@tanstack/react-query";
import { createFileRoute, redirect } from "@tanstack/react-router";
import { AppShell } from "@/web/components/layout/app-shell";
import { AttentionNavCount } from "@/web/features/attention";
import { KeyIndicator } from "@/web/features/auth/components/key-indicator";
import { JobsIndicator } from "@/web/features/jobs/components/jobs-indicator";
import { streamLink } from "@/web/features/transfers";
import { TransfersIndicator } from "@/web/features/transfers/components/transfers-indicator";
import { ViewerHost } from "@/web/features/viewer";
import { useSessionStore } from "@/web/stores/session-store";

export const Route = createFileRoute("/_app")({
  beforeLoad: async ({ location }) => {
    // A new tab asks the open ones for the browser session's key before asking the person.
    if (
      !useSessionStore.getState().session &&
      !(await useSessionStore.getState().adoptFromOpenTabs())
    ) {
      throw redirect({ to: "/connect", search: { redirect: location.href } });
    }
  },
  component: AppLayout,
});

function AppLayout() {
  const queryClient = useQueryClient();
  return (
    <>
      <AppShell
        account={<KeyIndicator />}
        navBadges={{
          attention: <AttentionNavCount />,
          portals: <AttentionNavCount section="uploads" />,
        }}
        jobs={
          <>
            <TransfersIndicator />
            <JobsIndicator />
          </>
        }
      />
      <ViewerHost streamLink={(file) => streamLink(queryClient, file)} />
    </>
  );
}
