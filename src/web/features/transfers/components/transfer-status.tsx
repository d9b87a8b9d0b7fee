import {
  BanIcon,
  CheckIcon,
  ClockIcon,
  CloudOffIcon,
  FolderSearchIcon,
  LoaderIcon,
  PauseIcon,
  TriangleAlertIcon,
} from "lucide-react";
import type { TransferState } from "@/contract/transfers";
import { Badge } from "@/web/components/ui/badge";
import type { UploadStatus } from "@/web/features/transfers/state/uploads-store";

type Shown = TransferState | "reconnecting" | "waiting";

const statuses: Record<Shown, { label: string; icon: typeof CheckIcon; tone: string }> = {
  queued: { label: "Queued", icon: ClockIcon, tone: "text-muted-foreground" },
  running: { label: "Running", icon: LoaderIcon, tone: "text-link" },
  paused: { label: "Paused", icon: PauseIcon, tone: "text-muted-foreground" },
  reconnecting: { label: "Reconnecting…", icon: CloudOffIcon, tone: "text-warning" },
  waiting: { label: "Waiting for files", icon: FolderSearchIcon, tone: "text-warning" },
  completed: { label: "Completed", icon: CheckIcon, tone: "text-success" },
  failed: { label: "Failed", icon: TriangleAlertIcon, tone: "text-destructive-text" },
  cancelled: { label: "Cancelled", icon: BanIcon, tone: "text-muted-foreground" },
};

/**
 * The status in words beside an icon. This browser's own upload says more than the service
 * knows: that it is reconnecting, or waiting for its files after a reload.
 */
export function TransferStatusBadge({
  status,
  local,
}: {
  status: TransferState;
  local?: UploadStatus | null;
}) {
  const shown: Shown = local === "reconnecting" || local === "waiting" ? local : status;
  const s = statuses[shown] ?? { label: shown, icon: ClockIcon, tone: "" };
  return (
    <Badge>
      <s.icon aria-hidden="true" className={`size-3.5 ${s.tone}`} />
      {s.label}
    </Badge>
  );
}
