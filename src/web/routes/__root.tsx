import type { QueryClient } from "@tanstack/react-query";
import { createRootRouteWithContext, Link, Outlet } from "@tanstack/react-router";
import { Toaster } from "@/web/components/ui/toaster";

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: () => (
    <>
      <Outlet />
      <Toaster />
    </>
  ),
  notFoundComponent: () => (
    <main className="mx-auto mt-16 grid max-w-md gap-3 p-6 text-center">
      <h1 className="text-lg font-semibold">Page not found</h1>
      <Link to="/files" search={{}} className="text-link underline">
        Go to Files
      </Link>
    </main>
  ),
});
