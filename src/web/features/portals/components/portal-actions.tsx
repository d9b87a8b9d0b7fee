import { MoreHorizontalIcon } from "lucide-react";
import { useState } from "react";
import type { Portal } from "@/contract/portals";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { CopyButton } from "@/web/components/copy-button";
import { Button } from "@/web/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@/web/components/ui/dropdown-menu";
import { describeError } from "@/web/lib/api-client";
import { copyText } from "@/web/lib/clipboard";
import { toast } from "@/web/stores/toast-store";
import { useRevokePortalMutation } from "../api/revoke-portal";
import { useUpdatePortalMutation } from "../api/update-portal";
import { portalState } from "./portal-badges";

import { PortalFormDialog } from "./portal-form-dialog";

type Open = "edit" | "revoke" | null;

/** Pause or resume, with a toast either way. */
function useSetPortalStatus(portal: Portal) {
  const update = useUpdatePortalMutation();
  return {
    pending: update.isPending,
    set: (status: "active" | "paused") =>
      update.mutateAsync({ id: portal.id, body: { status } }).then(
        () =>
          toast({
            title: status === "paused" ? `Paused “${portal.title}”` : `Resumed “${portal.title}”`,
            description:
              status === "paused"
                ? "Its page takes no uploads until you resume it."
                : portal.expired
                  ? "It has expired, though: edit its expiry to take uploads again."
                  : undefined,
          }),
        (error) =>
          toast({
            title: status === "paused" ? "Could not pause" : "Could not resume",
            description: describeError(error),
            tone: "error",
          }),
      ),
  };
}

/**
 * Every operation on one portal. In a row: Copy and a menu; on the portal's page: buttons. A
 * revoked portal keeps only its link (a revoked portal cannot be resumed or edited).
 */
export function PortalActions({ portal, layout }: { portal: Portal; layout: "row" | "page" }) {
  const [open, setOpen] = useState<Open>(null);
  const revoke = useRevokePortalMutation();
  const status = useSetPortalStatus(portal);
  const state = portalState(portal);
  const live = state !== "revoked";
  const paused = portal.status === "paused";

  const dialogs = (
    <>
      {open === "edit" && <PortalFormDialog portal={portal} onClose={() => setOpen(null)} />}
      {open === "revoke" && (
        <ConfirmDialog
          title={`Revoke “${portal.title}”?`}
          description="Its page stops taking uploads at once and for good: a revoked portal cannot be resumed. What was uploaded stays in the workspace."
          confirmLabel="Revoke portal"
          pendingLabel="Revoking…"
          destructive
          onConfirm={async () => {
            await revoke.mutateAsync(portal.id);
            toast({ title: `Revoked “${portal.title}”` });
          }}
          onClose={() => setOpen(null)}
        />
      )}
    </>
  );

  if (layout === "page")
    return (
      <>
        {live && (
          <>
            <Button size="sm" variant="outline" onClick={() => setOpen("edit")}>
              Edit…
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={status.pending}
              onClick={() => void status.set(paused ? "active" : "paused")}
            >
              {paused ? "Resume" : "Pause"}
            </Button>
            <Button
              size="sm"
              variant="outline"
              className="text-destructive-text"
              onClick={() => setOpen("revoke")}
            >
              Revoke…
            </Button>
          </>
        )}
        {dialogs}
      </>
    );

  return (
    <>
      {/* Above a row's stretched link (DataTable's rowActionClass), so its buttons stay usable. */}
      <div className="relative z-[1] flex items-center justify-end gap-1">
        <span className="hidden sm:contents">
          <CopyButton text={portal.url} label={`Copy the link of ${portal.title}`} />
        </span>
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="ghost" size="icon-sm" aria-label={`More actions for ${portal.title}`}>
              <MoreHorizontalIcon aria-hidden="true" />
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end">
            <DropdownMenuItem onSelect={() => void copyText(portal.url, "Link copied")}>
              Copy link
            </DropdownMenuItem>
            <DropdownMenuItem asChild>
              <a href={portal.url} target="_blank" rel="noreferrer">
                Open its page
              </a>
            </DropdownMenuItem>
            {live && (
              <>
                <DropdownMenuItem onSelect={() => setOpen("edit")}>Edit…</DropdownMenuItem>
                <DropdownMenuItem
                  disabled={status.pending}
                  onSelect={() => void status.set(paused ? "active" : "paused")}
                >
                  {paused ? "Resume" : "Pause"}
                </DropdownMenuItem>
                <DropdownMenuSeparator />
                <DropdownMenuItem onSelect={() => setOpen("revoke")}>Revoke…</DropdownMenuItem>
              </>
            )}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
      {dialogs}
    </>
  );
}
