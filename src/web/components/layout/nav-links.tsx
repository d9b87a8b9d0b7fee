import { Link } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { navItems } from "./nav-items";

const navLinkClass =
  "flex items-center gap-3 rounded-md px-3 py-2 text-sm text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring data-[status=active]:bg-accent data-[status=active]:font-medium data-[status=active]:text-foreground";

/** The console's name and mark, atop the sidebar and the drawer. */
export function Brand() {
  return (
    <span className="flex items-center gap-2">
      <img src="/favicon.svg" alt="" className="size-6" />
      <span className="font-semibold">Consign</span>
    </span>
  );
}

/** What an area's link shows after its label (a count), by area; given by the route. */
export type NavBadges = Partial<Record<string, ReactNode>>;

/** Every area's link, for the sidebar and the narrow-window drawer; `onNavigate` closes the drawer. */
export function NavLinks({ onNavigate, badges }: { onNavigate?: () => void; badges?: NavBadges }) {
  return navItems.map(({ area, label, icon: Icon }) => (
    <Link key={area} to="/$area" params={{ area }} className={navLinkClass} onClick={onNavigate}>
      <Icon className="size-4" aria-hidden="true" />
      {label}
      {badges?.[area]}
    </Link>
  ));
}
