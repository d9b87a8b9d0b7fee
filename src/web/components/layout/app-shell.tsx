import { Link, Outlet } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { ConnectionBanners } from "./connection-banners";
import { navItems } from "./nav-items";
import { ThemeMenu } from "./theme-menu";

const navLinkClass =
  "flex items-center gap-3 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[status=active]:bg-accent data-[status=active]:font-medium data-[status=active]:text-foreground";

/** `account` is the signed-in key's menu, given by the route so the shell needs no feature. */
export function AppShell({ account }: { account: ReactNode }) {
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
        <div className="mb-4 flex items-center gap-2 px-3 pt-1">
          <img src="/favicon.svg" alt="" className="size-6" />
          <span className="font-semibold">Consign</span>
        </div>
        {navItems.map(({ area, label, icon: Icon }) => (
          <Link key={area} to="/$area" params={{ area }} className={navLinkClass}>
            <Icon className="size-4" aria-hidden="true" />
            {label}
          </Link>
        ))}
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-14 shrink-0 items-center justify-end gap-2 border-b border-border px-4">
          <ThemeMenu />
          {account}
        </header>
        <ConnectionBanners />
        <main id="main" className="flex min-h-0 flex-1 flex-col">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
