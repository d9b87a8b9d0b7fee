import { Link, useRouterState } from "@tanstack/react-router";
import { ArrowUpFromLineIcon } from "lucide-react";
import { formatCount } from "@/browser/format";
import {
  useActiveUploadCount,
  useUploadsStore,
} from "@/web/features/transfers/state/uploads-store";
import { useWorkspaceId } from "@/web/stores/session-store";
import { UploadTray } from "./upload-tray";

/** The badge of this browser's uploads (a link to the monitor), and the tray on other pages. */
export default function UploadsIndicator() {
  const workspaceId = useWorkspaceId();
  const active = useActiveUploadCount(workspaceId);
  const any = useUploadsStore((s) =>
    Object.values(s.uploads).some((u) => u.workspaceId === workspaceId),
  );
  const onMonitor = useRouterState({ select: (s) => s.location.pathname === "/transfers" });
  const label = `${formatCount(active)} upload${active === 1 ? "" : "s"} in progress`;
  return (
    <>
      {active > 0 && (
        <Link
          to="/transfers"
          aria-label={label}
          title={label}
          className="flex h-8 shrink-0 items-center gap-1 rounded-md border border-border px-1.5 text-sm font-medium hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <ArrowUpFromLineIcon aria-hidden="true" className="size-4 text-link" />
          <span className="tabular-nums max-sm:hidden">{formatCount(active)}</span>
        </Link>
      )}
      {any && !onMonitor && <UploadTray workspaceId={workspaceId} />}
    </>
  );
}
