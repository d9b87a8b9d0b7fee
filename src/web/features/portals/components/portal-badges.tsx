import type { ReactNode } from "react";
import type { PortalUpload, SpecCheck } from "@/contract/portals";
import { Badge } from "@/web/components/ui/badge";
import { cn } from "@/web/lib/cn";

/** What a portal's page does now, as the list and its page show it. */
export type PortalState = "active" | "paused" | "expired" | "revoked";

export function portalState(p: { status: string; expired: boolean }): PortalState {
  if (p.status === "revoked") return "revoked";
  if (p.expired) return "expired";
  return p.status === "paused" ? "paused" : "active";
}

const dots = {
  success: "bg-success",
  warning: "bg-warning",
  danger: "bg-destructive",
  muted: "bg-muted-foreground",
  info: "bg-primary dark:bg-link",
};
type Tone = keyof typeof dots;

/** A colour dot beside foreground text (a tinted text falls short of 4.5:1 in light mode). */
function DotBadge({ tone, children, title }: { tone: Tone; children: ReactNode; title?: string }) {
  return (
    <Badge title={title} className="shrink-0">
      <span aria-hidden="true" className={cn("size-2 rounded-full", dots[tone])} />
      {children}
    </Badge>
  );
}

const portalLooks: Record<PortalState, { label: string; tone: Tone; title: string }> = {
  active: { label: "Active", tone: "success", title: "Its page takes uploads" },
  paused: { label: "Paused", tone: "warning", title: "Its page takes no uploads until resumed" },
  expired: { label: "Expired", tone: "muted", title: "Its expiry passed: it takes no uploads" },
  revoked: { label: "Revoked", tone: "danger", title: "Closed for good" },
};

export function PortalStatusBadge({ portal }: { portal: { status: string; expired: boolean } }) {
  const look = portalLooks[portalState(portal)];
  return (
    <DotBadge tone={look.tone} title={look.title}>
      {look.label}
    </DotBadge>
  );
}

const uploadLooks: Record<PortalUpload["status"], { label: string; tone: Tone }> = {
  uploading: { label: "Uploading", tone: "info" },
  received: { label: "To review", tone: "warning" },
  pending: { label: "Pending", tone: "warning" },
  approved: { label: "Approved", tone: "success" },
  rejected: { label: "Rejected", tone: "danger" },
  failed: { label: "Failed", tone: "muted" },
};

export function UploadStatusBadge({ upload }: { upload: PortalUpload }) {
  const look = uploadLooks[upload.status];
  const percent =
    upload.status === "uploading" && upload.bytesTotal
      ? Math.floor((upload.bytesDone / upload.bytesTotal) * 100)
      : null;
  return (
    <DotBadge tone={look.tone}>
      {look.label}
      {percent !== null && ` ${percent} %`}
    </DotBadge>
  );
}

/** The spec check's verdict; nothing when the portal asks for no spec. */
export function SpecCheckBadge({ check }: { check: SpecCheck }) {
  switch (check.status) {
    case "passed":
      return <DotBadge tone="success">Spec passed</DotBadge>;
    case "failed":
      return (
        <DotBadge
          tone="danger"
          title={check.problems.map((p) => `${p.path}: ${p.message}`).join("\n")}
        >
          Spec failed
          {check.problems.length > 0 && ` (${check.problems.length})`}
        </DotBadge>
      );
    case "checking":
      return <DotBadge tone="info">Checking spec…</DotBadge>;
    default:
      return null;
  }
}
