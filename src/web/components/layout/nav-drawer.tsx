import type { RefObject } from "react";
import { Sheet, SheetContent, SheetTitle } from "@/web/components/ui/sheet";
import { Brand, type NavBadges, NavLinks } from "./nav-links";

/**
 * The areas as a drawer, for windows too narrow for the sidebar. Loaded on first open: the
 * dialog code is not on the way to the first page.
 */
export default function NavDrawer({
  onClose,
  menuButton,
  badges,
}: {
  onClose(): void;
  /** Where focus returns on close; the drawer has no Radix trigger of its own. */
  menuButton: RefObject<HTMLButtonElement | null>;
  badges?: NavBadges;
}) {
  return (
    <Sheet open onOpenChange={(open) => !open && onClose()}>
      <SheetContent
        side="left"
        aria-describedby={undefined}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          menuButton.current?.focus();
        }}
      >
        <SheetTitle className="px-3 pt-1">
          <Brand />
        </SheetTitle>
        <nav aria-label="Areas" className="grid gap-1">
          <NavLinks onNavigate={onClose} badges={badges} />
        </nav>
      </SheetContent>
    </Sheet>
  );
}
