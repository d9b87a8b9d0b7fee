import { BanIcon, CheckIcon, ClockIcon, LoaderIcon, TriangleAlertIcon } from "lucide-react";
import type { JobStatus } from "@/contract/operations";
import { Badge } from "@/web/components/ui/badge";

const statuses: Record<JobStatus, { label: string; icon: typeof CheckIcon; tone: string }> = {
  queued: { label: "Queued", icon: ClockIcon, tone: "text-muted-foreground" },
  running: { label: "Running", icon: LoaderIcon, tone: "text-link" },
  completed: { label: "Completed", icon: CheckIcon, tone: "text-success" },
  failed: { label: "Failed", icon: TriangleAlertIcon, tone: "text-destructive-text" },
  cancelled: { label: "Cancelled", icon: BanIcon, tone: "text-muted-foreground" },
};

/** The status in words beside an icon (the colour is on the icon only, so the text stays legible). */
export function JobStatusBadge({ status }: { status: JobStatus }) {
  const s = statuses[status] ?? { label: status, icon: ClockIcon, tone: "" };
  return (
    <Badge>
      <s.icon aria-hidden="true" className={`size-3.5 ${s.tone}`} />
      {s.label}
    </Badge>
  );
}
