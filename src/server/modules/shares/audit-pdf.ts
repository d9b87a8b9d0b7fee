import { formatBytes } from "@/contract/format";
import type { Receipt } from "@/contract/receipts";
import {
  type Branding,
  type Cell,
  facts,
  finish,
  heading,
  newPdf,
  type Pdf,
  table,
  title,
  when,
} from "./pdf-layout";
import { checksums, verdictBanner } from "./receipt-pdf";

/*
 * The audit report: everything the sender's records hold about a delivery, for the sender (not
 * to be forwarded): each download with the address it came from, failed passwords, comments in
 * full. Repeats (a recipient reloading the page thirteen times) are one row with a count.
 */

type Event = Receipt["timeline"][number];

/** Consecutive events of the same kind, by the same person, with the same detail: one row. */
export function groupTimeline(timeline: Event[]) {
  const groups: { first: Event; last: Event; count: number }[] = [];
  for (const e of timeline) {
    const prev = groups.at(-1);
    if (
      prev &&
      e.type !== "commented" &&
      prev.first.type === e.type &&
      prev.first.who?.email === e.who?.email &&
      prev.first.who?.kind === e.who?.kind &&
      prev.first.detail === e.detail
    ) {
      prev.last = e;
      prev.count++;
    } else groups.push({ first: e, last: e, count: 1 });
  }
  return groups;
}

const EVENT_NAMES: Record<Event["type"], string> = {
  created: "created",
  sent: "sent",
  viewed: "viewed",
  downloaded: "downloaded",
  extended: "extended",
  revoked: "revoked",
  expired: "expired",
  password_failed: "wrong password",
  commented: "comment",
};

function timelineRows(r: Receipt): Cell[][] {
  return groupTimeline(r.timeline).map(({ first, last, count }) => [
    count === 1 ? when(first.at) : `${when(first.at)} to ${last.at.slice(11, 16)}`,
    count === 1 ? EVENT_NAMES[first.type] : `${EVENT_NAMES[first.type]} ×${count}`,
    first.who?.email ?? (first.who ? "anonymous" : ""),
    first.type === "commented" ? { text: first.detail ?? "", wrap: true } : (first.detail ?? ""),
  ]);
}

function downloads(pdf: Pdf, r: Receipt) {
  if (r.downloads.length === 0) return;
  heading(pdf, "Downloads");
  table(
    pdf,
    [
      { title: "When", width: 92 },
      { title: "Who", width: 140 },
      { title: "Files", width: 40, align: "right" },
      { title: "Size", width: 62, align: "right" },
      { title: "From", width: 90 },
      { title: "Verified", width: 75 },
    ],
    r.downloads.map((d) => [
      when(d.completedAt ?? d.startedAt),
      d.who.email ?? "anonymous",
      d.fileCount,
      formatBytes(d.bytes),
      d.address ?? "-",
      d.completedAt === null ? "did not finish" : d.verified ? "yes" : "NO",
    ]),
    8,
  );
  const mismatches = r.downloads.flatMap((d) =>
    d.unverifiedFiles.map((f) => [
      d.who.email ?? "anonymous",
      f.path,
      f.reportedSha256 ?? "not checked",
    ]),
  );
  if (mismatches.length === 0) return;
  heading(pdf, "Files that did not verify");
  table(
    pdf,
    [
      { title: "Who", width: 100 },
      { title: "File", width: 139 },
      { title: "SHA-256 received", width: 260, mono: true },
    ],
    mismatches,
  );
}

/** The sender's full record of a delivery. */
export function auditPdf(r: Receipt, logo: Uint8Array | null): Promise<Buffer> {
  const pdf = newPdf(`Audit report: ${r.share.title}`);
  title(
    pdf,
    r.share.title,
    `Audit report for ${r.share.workspace.name}: internal, not for the recipients`,
  );
  verdictBanner(pdf, r);
  const completed = r.downloads.filter((d) => d.completedAt !== null).length;
  facts(pdf, [
    ["Receipt", r.receiptId],
    ["Status", r.share.status],
    ["Shared", when(r.share.createdAt)],
    ["Expires", when(r.share.expiresAt)],
    ["Files", `${r.files.length.toLocaleString("en")} (${formatBytes(r.totalBytes ?? 0)})`],
    [
      "Downloads",
      `${completed} completed${r.share.maxDownloads === null ? "" : ` of at most ${r.share.maxDownloads}`}`,
    ],
    ["Generated", when(r.generatedAt)],
  ]);
  heading(pdf, "Recipients");
  table(
    pdf,
    [
      { title: "Recipient", width: 175 },
      { title: "Viewed", width: 60 },
      { title: "Downloaded", width: 90 },
      { title: "Verified", width: 70 },
      { title: "Last download", width: 104 },
    ],
    [
      ...r.recipients.map((p) => [
        p.email,
        p.viewed ? "yes" : "no",
        p.downloaded ? "all files" : `${p.filesDownloaded} of ${r.files.length}`,
        p.verified ? "yes" : "no",
        when(p.lastDownloadAt),
      ]),
      [
        "Anyone with the plain link",
        `${r.anonymous.views} views`,
        `${r.anonymous.downloads} downloads`,
        `${r.anonymous.verifiedDownloads} verified`,
        when(r.anonymous.lastDownloadAt),
      ],
    ],
    8,
  );
  downloads(pdf, r);
  heading(pdf, "Timeline");
  table(
    pdf,
    [
      { title: "When", width: 110 },
      { title: "Event", width: 80 },
      { title: "Who", width: 130 },
      { title: "Detail", width: 179 },
    ],
    timelineRows(r),
    8,
  );
  checksums(pdf, r);
  const brand: Branding = {
    workspace: r.share.workspace.name,
    logo,
    kind: "Audit report",
    reference: r.receiptId,
  };
  return finish(pdf, brand);
}
