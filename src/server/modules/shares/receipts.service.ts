import { CELL, type DeliveryState, decodeRuns } from "@/contract/receipt-verdict";
import type { Receipt } from "@/contract/receipts";
import { csvField } from "@/contract/shares";
import type { AppDeps } from "@/server/deps";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { messagesOfShare, type OutboxRow } from "@/server/modules/mail/outbox.repository";
import { getMember } from "@/server/modules/members/members.repository";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import {
  type DownloadRow,
  downloadsOf,
  type FailureRow,
  failuresOf,
  firstFilesOfDownloads,
  type ListedFileRow,
  type UnmatchedFileRow,
  unmatchedFilesOfDownloads,
  type ViewRow,
  viewsOf,
} from "./activity.repository";
import { type DeliveryRow, deliveriesOf } from "./delivery.repository";
import { receiptMatrix } from "./receipt-matrix";
import {
  type ChangeRow,
  type CommentRow,
  changesOf,
  commentsOf,
  filesOf,
  type RecipientRow,
  recipientsOf,
  type ShareFileRow,
  type ShareRow,
} from "./shares.repository";
import { requireShare, type ShareCreator, shareView, toRecipient } from "./shares.service";

/** Files listed per download on the receipt; the mismatches are always listed in full. */
export const DOWNLOAD_FILES_LISTED = 100;

type Timeline = Receipt["timeline"];

// Map.groupBy would do, but it arrived in Node 21 and we support 20.19.
function byDownload<T extends { download_id: string }>(rows: T[]) {
  const groups = new Map<string, T[]>();
  for (const r of rows) {
    const group = groups.get(r.download_id);
    if (group) group.push(r);
    else groups.set(r.download_id, [r]);
  }
  return groups;
}
const bytesText = (n: number) => `${n.toLocaleString("en")} bytes`;

type Who = (recipientId: string | null) => Receipt["downloads"][number]["who"];

/** Every download, with its first files and every file that did not verify. */
function receiptDownloads(f: ReceiptFacts, who: Who) {
  const listed = byDownload(f.listedFiles);
  const unmatched = byDownload(f.unmatchedFiles);
  return f.downloads.map((d) => ({
    id: d.id,
    who: who(d.recipient_id),
    startedAt: toIso(d.started_at),
    completedAt: toIsoOrNull(d.completed_at),
    fileCount: d.file_count,
    bytes: d.bytes,
    address: d.address,
    transferId: d.transfer_id,
    verified: d.verified === 1,
    files: (listed.get(d.id) ?? []).map((f) => ({
      path: f.path,
      sha256: f.reported_sha256,
      matched: f.matched === 1,
    })),
    unverifiedFiles: (unmatched.get(d.id) ?? []).map((f) => ({
      path: f.path,
      expectedSha256: f.sha256,
      reportedSha256: f.reported_sha256,
    })),
  }));
}

/** Everything that happened to the share, oldest first. */
function receiptTimeline(f: ReceiptFacts, who: Who): Timeline {
  const { row } = f;
  const timeline: Timeline = [
    { at: toIso(row.created_at), type: "created", who: null, detail: null },
  ];
  for (const m of f.messages) {
    const to = { kind: "recipient" as const, email: m.to_address };
    if (m.status === "sent")
      timeline.push({ at: toIso(m.sent_at!), type: "sent", who: to, detail: "mailed" });
    else
      timeline.push({
        at: toIso(m.created_at),
        type: "sent",
        who: to,
        detail:
          m.status === "failed"
            ? `could not be mailed: ${m.error ?? "unknown error"}`
            : `in the outbox (${m.status})`,
      });
  }
  for (const v of f.views)
    timeline.push({
      at: toIso(v.viewed_at),
      type: "viewed",
      who: who(v.recipient_id),
      detail: v.address,
    });
  for (const d of f.downloads)
    timeline.push({
      at: toIso(d.completed_at ?? d.started_at),
      type: "downloaded",
      who: who(d.recipient_id),
      detail: `${d.file_count} ${d.file_count === 1 ? "file" : "files"}, ${bytesText(d.bytes)}, ${d.completed_at === null ? "did not finish" : d.verified ? "verified" : "not verified"}`,
    });
  for (const c of f.changes)
    timeline.push({
      at: toIso(c.changed_at),
      type: "extended",
      who: null,
      detail: `expires ${toIso(c.expires_at)}${c.max_downloads === null ? "" : `, at most ${c.max_downloads} downloads`}`,
    });
  if (row.revoked_at !== null)
    timeline.push({ at: toIso(row.revoked_at), type: "revoked", who: null, detail: null });
  if (row.expired_at !== null)
    timeline.push({ at: toIso(row.expires_at), type: "expired", who: null, detail: null });
  for (const w of f.failures)
    timeline.push({
      at: toIso(w.failed_at),
      type: "password_failed",
      who: who(w.recipient_id),
      detail: w.address,
    });
  for (const c of f.comments)
    timeline.push({
      at: toIso(c.created_at),
      type: "commented",
      who: c.author_kind === "member" ? null : { kind: c.author_kind, email: c.author_email },
      detail: c.body.length > 120 ? `${c.body.slice(0, 119)}…` : c.body,
    });
  // ISO times sort as text; the sort is stable, so entries of one instant keep their order.
  timeline.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return timeline;
}

/** Each recipient: what they viewed and downloaded, and what they now hold (the matrix row). */
const receiptRecipient =
  (row: ShareRow, stateOf: Map<string | null, DeliveryState>) => (r: RecipientRow) => {
    const delivery = stateOf.get(r.id) ?? "not_delivered";
    return {
      ...toRecipient(r),
      viewed: r.views > 0,
      downloaded: r.files_downloaded >= row.file_count,
      verified: delivery === "verified",
      delivery,
    };
  };

/** What the verification report reads: the share, its parties, downloads and snapshot. */
export interface MatrixFacts {
  row: ShareRow;
  recipients: RecipientRow[];
  /** Oldest first (started_at, id): a cell names its download by index in this list. */
  downloads: DownloadRow[];
  deliveries: DeliveryRow[];
  files: ShareFileRow[];
}

/** Everything a receipt is built from, as either engine read it (sharePublicStore). */
export interface ReceiptFacts extends MatrixFacts {
  workspaceName: string;
  creator: ShareCreator | undefined;
  views: ViewRow[];
  failures: FailureRow[];
  changes: ChangeRow[];
  /** The share's mail, in the outbox's order. */
  messages: OutboxRow[];
  comments: CommentRow[];
  /** The first DOWNLOAD_FILES_LISTED files of each download. */
  listedFiles: ListedFileRow[];
  unmatchedFiles: UnmatchedFileRow[];
}

const matrixOf = (f: MatrixFacts) =>
  receiptMatrix(f.deliveries, f.row, f.recipients, new Map(f.downloads.map((d, i) => [d.id, i])));

/**
 * The delivery receipt (spec: Delivery receipt): the share as it was shared, who viewed and
 * downloaded what, from where, whether each download verified, the timeline and every file's
 * checksum. Built from the share's own tables (not the event stream, which keeps 30 days).
 */
export function receiptOf(f: ReceiptFacts, a: { now: number; base: string }): Receipt {
  const { row, recipients } = f;
  const { recipients: _, ...share } = shareView(row, {
    base: a.base,
    now: a.now,
    recipients,
    member: f.creator,
  });
  const emailOf = new Map(recipients.map((r) => [r.id, r.email]));
  const who: Who = (recipientId) =>
    recipientId
      ? { kind: "recipient" as const, email: emailOf.get(recipientId) ?? null }
      : { kind: "anonymous" as const, email: null };
  const completed = f.downloads.filter((d) => d.completed_at !== null);
  const anonymousViews = f.views.filter((v) => v.recipient_id === null);
  const anonymousDownloads = completed.filter((d) => d.recipient_id === null);
  const matrix = matrixOf(f);
  const stateOf = new Map(matrix.map((m) => [m.recipientId, m.state]));

  return {
    receiptId: `rcpt_${row.id}`,
    generatedAt: toIso(a.now),
    share: { ...share, workspace: { id: row.workspace_id, name: f.workspaceName } },
    items: share.items,
    totalBytes: row.total_bytes,
    recipients: recipients.map(receiptRecipient(row, stateOf)),
    anonymous: {
      views: anonymousViews.length,
      downloads: anonymousDownloads.length,
      verifiedDownloads: anonymousDownloads.filter((d) => d.verified === 1).length,
      lastViewedAt: toIsoOrNull(anonymousViews.at(-1)?.viewed_at),
      lastDownloadAt: toIsoOrNull(anonymousDownloads.at(-1)?.completed_at),
    },
    downloads: receiptDownloads(f, who),
    timeline: receiptTimeline(f, who),
    verdict: row.verdict,
    matrix,
    integrity: row.verdict === "verified" ? "verified" : "none",
    files: f.files.map((file) => ({
      path: file.path,
      sizeBytes: file.size,
      sha256: file.sha256,
      mimeType: file.mime,
    })),
    checksumType: "sha256",
  };
}

/** SQLite's reads for the verification report (404 `not_found` for an unknown share). */
export function readMatrixFacts(deps: AppDeps, workspaceId: string, shareId: string): MatrixFacts {
  const { db } = deps;
  return {
    row: requireShare(deps, workspaceId, shareId),
    recipients: recipientsOf(db, shareId),
    downloads: downloadsOf(db, shareId),
    deliveries: deliveriesOf(db, shareId),
    files: filesOf(db, shareId),
  };
}

/** SQLite's reads for a receipt, in one read transaction so they agree with one another. */
export function readReceiptFacts(deps: AppDeps, workspaceId: string, shareId: string) {
  const { db } = deps;
  return db.transaction((): ReceiptFacts => {
    const facts = readMatrixFacts(deps, workspaceId, shareId);
    const { member_id } = facts.row;
    return {
      ...facts,
      workspaceName: getWorkspace(db, workspaceId)?.name ?? "",
      creator: member_id ? getMember(db, member_id) : undefined,
      views: viewsOf(db, shareId),
      failures: failuresOf(db, shareId),
      changes: changesOf(db, shareId),
      messages: messagesOfShare(db, shareId),
      comments: commentsOf(db, shareId, "", Number.MAX_SAFE_INTEGER),
      listedFiles: firstFilesOfDownloads(db, shareId, DOWNLOAD_FILES_LISTED),
      unmatchedFiles: unmatchedFilesOfDownloads(db, shareId),
    };
  })();
}

const cellStatus: Record<string, string> = {
  [CELL.verified]: "verified",
  [CELL.unchecked]: "unchecked",
  [CELL.failed]: "failed",
  [CELL.none]: "not_downloaded",
};

/**
 * The verification report: one row per recipient (then the plain link) and shared file, from the
 * matrix: `status` verified, unchecked, failed or not_downloaded as that party's latest completed
 * download of the file left it, with when and which download. The facts are read (and the share
 * checked) before the first byte; the rows are made a party at a time as the response is read.
 * CRLF line ends, formula-safe fields.
 */
export function receiptCsv(f: MatrixFacts): Generator<string> {
  const { downloads } = f;
  const matrix = matrixOf(f);
  const files = f.files.map(
    (file) => `${csvField(file.path)},${file.size},${csvField(file.sha256)}`,
  );
  return (function* () {
    yield "recipient,path,size_bytes,sha256,status,downloaded_at,download_id\r\n";
    for (const party of matrix) {
      const who = csvField(party.email ?? "plain link");
      const by = decodeRuns(party.decidedBy, files.length, -1);
      const lines: string[] = [];
      for (const [i, file] of files.entries()) {
        const d = downloads[by[i]!];
        const when = d?.completed_at == null ? "" : csvField(toIso(d.completed_at));
        lines.push(
          `${who},${file},${csvField(cellStatus[party.cells[i]!]!)},${when},${d ? csvField(d.id) : ""}\r\n`,
        );
      }
      yield lines.join("");
    }
  })();
}
