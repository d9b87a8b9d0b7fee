import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "@tanstack/react-router";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { keepFailedChunksInPage } from "./lib/chunk-load";
import { createQueryClient } from "./lib/query-client";
import { createAppRouter } from "./router";
import { takeKeyFromFragment, useSessionStore } from "./stores/session-store";
import { initTheme } from "./stores/theme-store";
import "./styles.css";

initTheme();
keepFailedChunksInPage(window);

const fragmentKey = takeKeyFromFragment(window.location, window.history);
if (fragmentKey) {
  // A key from the sign-in link replaces whatever session this tab had (other tabs keep theirs);
  // the connect screen checks it.
  useSessionStore.getState().signOut(undefined, true);
  useSessionStore.getState().setPendingKey(fragmentKey);
}

const queryClient = createQueryClient();
const router = createAppRouter(queryClient);

// Whoever signs out (the button, or a 401 from any call) loses every cached answer.
useSessionStore.subscribe((state, previous) => {
  if (previous.session && !state.session) {
    queryClient.clear();
    // After a 401 (a reason is given) the person comes back to the page they were on.
    const redirect = state.signedOutReason ? router.state.location.href : undefined;
    void router.navigate({ to: "/connect", search: { redirect } });
  }
});

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
