import { Outlet } from "@tanstack/react-router";
import { MenuIcon } from "lucide-react";
import { type ReactNode, Suspense, useRef, useState } from "react";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import { Button } from "@/web/components/ui/button";
import { ConnectionBanners } from "./connection-banners";
import { Brand, type NavBadges, NavLinks } from "./nav-links";
import { ThemeMenu } from "./theme-menu";

const NavDrawer = lazyWithRetry(() => import("./nav-drawer"));

/**
 * `account` is the signed-in key's menu, `jobs` the running jobs' badge and `navBadges` the
 * counts beside areas' links, given by the route so the shell needs no feature.
 */
export function AppShell({
  account,
  jobs,
  navBadges,
}: {
  account: ReactNode;
  jobs?: ReactNode;
  navBadges?: NavBadges;
}) {
  const [drawerOpen, setDrawerOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  return (
    <div className="flex h-full">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-card focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <nav
        aria-label="Areas"
        className="hidden w-56 shrink-0 flex-col gap-1 border-r border-border p-3 md:flex"
      >
        <div className="mb-4 px-3 pt-1">
          <Brand />
        </div>
        <NavLinks badges={navBadges} />
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 shrink-0 items-center gap-2 border-b border-border px-2 sm:px-4">
          <Button
            ref={menuButton}
            variant="ghost"
            size="icon"
            className="md:hidden"
            aria-label="Open navigation"
            aria-haspopup="dialog"
            aria-expanded={drawerOpen}
            onClick={() => setDrawerOpen(true)}
          >
            <MenuIcon aria-hidden="true" />
          </Button>
          {/* Tighter on a phone, where the jobs badge joins the theme and key controls. */}
          <div className="ml-auto flex min-w-0 items-center gap-1 sm:gap-2">
            {jobs}
            <ThemeMenu />
            {account}
          </div>
        </header>
        <ConnectionBanners />
        <main id="main" className="flex min-h-0 flex-1 flex-col">
          <Outlet />
        </main>
      </div>
      {drawerOpen && (
        <Suspense fallback={null}>
          <NavDrawer
            menuButton={menuButton}
            badges={navBadges}
            onClose={() => setDrawerOpen(false)}
          />
        </Suspense>
      )}
    </div>
  );
}
