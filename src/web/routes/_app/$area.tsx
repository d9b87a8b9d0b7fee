import { createFileRoute, notFound } from "@tanstack/react-router";
import { navItems } from "@/web/components/layout/nav-items";
import { NotBuiltPage } from "@/web/components/not-built-page";
import { NotFoundPage } from "@/web/components/not-found-page";

// Areas with their own route file match first; this one answers for areas not built yet.
export const Route = createFileRoute("/_app/$area")({
  loader: ({ params }) => {
    const item = navItems.find((i) => i.area === params.area && !i.built);
    if (!item) throw notFound();
    return { label: item.label, summary: item.summary };
  },
  // Handled here, so the page stays inside the app shell.
  notFoundComponent: NotFoundPage,
  component: function Area() {
    const { label, summary } = Route.useLoaderData();
    return <NotBuiltPage label={label} summary={summary} />;
  },
});
