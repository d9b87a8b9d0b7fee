import { createFileRoute, redirect } from "@tanstack/react-router";
import { AppShell } from "../components/layout/app-shell";
import { useSessionStore } from "../stores/session-store";

export const Route = createFileRoute("/_app")({
  beforeLoad: ({ location }) => {
    if (!useSessionStore.getState().session) {
      throw redirect({ to: "/connect", search: { redirect: location.href } });
    }
  },
  component: AppShell,
});
