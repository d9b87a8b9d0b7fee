import { Link, type LinkProps } from "@tanstack/react-router";
import {
  ClockIcon,
  InboxIcon,
  ListChecksIcon,
  type LucideIcon,
  ShieldAlertIcon,
  WebhookIcon,
} from "lucide-react";
import type { ReactNode } from "react";
import { formatCount, formatRelative } from "@/browser/format";
import type {
  Attention,
  AttentionEndpoint,
  AttentionExpiringShare,
  AttentionFailedDownload,
  AttentionJob,
  AttentionUpload,
} from "@/contract/attention";
import {
  type AttentionSection,
  EXPIRING_WITHIN_HOURS,
  FAILED_JOBS_DAYS,
} from "@/contract/attention-rules";
import { Badge } from "@/web/components/ui/badge";

/** One entry: what it is, a line of detail, and where it is dealt with. */
interface Entry {
  key: string;
  title: string;
  detail: string;
  tag?: ReactNode;
  link: LinkProps;
}

interface SectionSpec<T> {
  title: string;
  icon: LucideIcon;
  /** What the section lists, said when it is empty. */
  none: string;
  entry(item: T, now: number): Entry;
  /** Where every entry of the kind is listed, for "all N". */
  all: { label: string; link: LinkProps };
}

const when = (iso: string, now: number) => formatRelative(iso, now);

const uploads: SectionSpec<AttentionUpload> = {
  title: "Uploads to review",
  icon: InboxIcon,
  none: "No portal upload waits for a decision.",
  entry: (u, now) => ({
    key: u.id,
    title: u.senderName || u.senderEmail || "Someone",
    detail: `${u.portalTitle} · ${u.fileCount === null ? "" : `${formatCount(u.fileCount)} ${u.fileCount === 1 ? "file" : "files"} · `}${when(u.receivedAt, now)}`,
    tag:
      u.specStatus === "failed" ? (
        <Badge tone="danger">Check failed</Badge>
      ) : u.status === "pending" ? (
        <Badge>On hold</Badge>
      ) : undefined,
    link: { to: "/portals", search: { view: "review", portalId: u.portalId } },
  }),
  all: { label: "the review queue", link: { to: "/portals", search: { view: "review" } } },
};

const failedDownloads: SectionSpec<AttentionFailedDownload> = {
  title: "Downloads that failed verification",
  icon: ShieldAlertIcon,
  none: "Every download's checksums matched, or a later download replaced the copy.",
  entry: (d, now) => ({
    key: d.downloadId,
    title: d.shareTitle,
    detail: `${d.recipient ?? "Open link"} · ${formatCount(d.failedFiles)} ${d.failedFiles === 1 ? "file" : "files"} did not match · ${when(d.completedAt, now)}`,
    link: { to: "/shares", search: { share: d.shareId, view: "receipt" } },
  }),
  all: { label: "Shares", link: { to: "/shares" } },
};

const expiringShares: SectionSpec<AttentionExpiringShare> = {
  title: "Shares expiring unopened",
  icon: ClockIcon,
  none: `No share expires within ${EXPIRING_WITHIN_HOURS} hours without having been opened.`,
  entry: (s, now) => ({
    key: s.shareId,
    title: s.title,
    detail: `Expires ${when(s.expiresAt, now)} · ${s.recipients === 0 ? "link only" : `${formatCount(s.recipients)} ${s.recipients === 1 ? "recipient" : "recipients"}`} · never opened`,
    link: { to: "/shares", search: { share: s.shareId } },
  }),
  all: { label: "Shares", link: { to: "/shares" } },
};

const disabledEndpoints: SectionSpec<AttentionEndpoint> = {
  title: "Webhook endpoints disabled by failures",
  icon: WebhookIcon,
  none: "No webhook endpoint was disabled by failed deliveries.",
  entry: (e, now) => ({
    key: e.webhookId,
    title: e.description || e.url,
    detail: `${formatCount(e.failureCount)} failures in a row${e.lastDeliveryAt ? ` · last tried ${when(e.lastDeliveryAt, now)}` : ""}`,
    link: { to: "/webhooks/$webhookId", params: { webhookId: e.webhookId } },
  }),
  all: { label: "Webhooks", link: { to: "/webhooks" } },
};

const jobKinds: Record<AttentionJob["kind"], string> = {
  move: "Move",
  copy: "Copy",
  trash: "Move to trash",
  delete: "Delete",
  restore: "Restore",
  purge: "Purge",
};

const failedJobs: SectionSpec<AttentionJob> = {
  title: "Jobs that failed",
  icon: ListChecksIcon,
  none: `No job failed in the last ${FAILED_JOBS_DAYS} days.`,
  entry: (j, now) => ({
    key: j.jobId,
    title: jobKinds[j.kind],
    detail: `${j.status === "failed" ? j.error || "Failed" : `${formatCount(j.failedItems ?? 0)} items failed`} · ${when(j.finishedAt, now)}`,
    link: { to: "/jobs", search: { job: j.jobId } },
  }),
  all: { label: "the job centre", link: { to: "/jobs" } },
};

// biome-ignore lint/suspicious/noExplicitAny: each section's spec takes its own entry type
export const sectionSpecs: Record<AttentionSection, SectionSpec<any>> = {
  uploads,
  failedDownloads,
  expiringShares,
  disabledEndpoints,
  failedJobs,
};

const rowClass =
  "flex min-w-0 items-center gap-3 rounded-md px-3 py-2 hover:bg-accent focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring";

/** One kind of thing that needs attention: its count, its first entries, each a link. */
export function AttentionSectionCard({
  name,
  section,
  now,
}: {
  name: AttentionSection;
  section: NonNullable<Attention[AttentionSection]>;
  now: number;
}) {
  const spec = sectionSpecs[name];
  const Icon = spec.icon;
  const headingId = `attention-${name}`;
  const more = section.total - section.items.length;
  return (
    <section
      aria-labelledby={headingId}
      data-testid={`attention-${name}`}
      className="rounded-lg border border-border bg-card"
    >
      <h2 id={headingId} className="flex items-center gap-2 px-4 pt-3 pb-2 font-medium">
        <Icon className="size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
        <span className="min-w-0">{spec.title}</span>
        <Badge
          tone={section.total > 0 ? "warning" : "default"}
          className="ml-auto tabular-nums"
          data-testid={`attention-${name}-total`}
        >
          {formatCount(section.total)}
        </Badge>
      </h2>
      {section.total === 0 ? (
        <p className="px-4 pb-3 text-sm text-muted-foreground">{spec.none}</p>
      ) : (
        <ul className="grid gap-0.5 px-1 pb-2">
          {section.items.map((item) => {
            const e = spec.entry(item, now);
            return (
              <li key={e.key}>
                <Link {...e.link} className={rowClass}>
                  <span className="grid min-w-0 flex-1">
                    <span className="truncate text-sm font-medium">{e.title}</span>
                    <span className="truncate text-xs text-muted-foreground">{e.detail}</span>
                  </span>
                  {e.tag}
                </Link>
              </li>
            );
          })}
          {more > 0 && (
            <li className="px-3 pt-1 text-sm">
              <Link
                {...spec.all.link}
                className="text-link underline-offset-4 hover:underline focus-visible:outline-2 focus-visible:outline-ring"
              >
                {formatCount(more)} more in {spec.all.label}
              </Link>
            </li>
          )}
        </ul>
      )}
    </section>
  );
}
