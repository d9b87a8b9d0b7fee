import {
  CELL,
  cellOf,
  decodeRuns,
  encodeRuns,
  partyState,
  shareVerdict,
} from "@/contract/receipt-verdict";
import type { Receipt } from "@/contract/receipts";
import type { Db } from "@/server/db/database";
import type { DownloadFile } from "./activity.repository";
import {
  type DeliveryRow,
  deliveryOf,
  deliveryStatesOf,
  PLAIN_LINK,
  recipientIdsOf,
  saveDelivery,
  setVerdict,
} from "./delivery.repository";
import type { ShareRow } from "./shares.repository";

/**
 * A completed download, applied to its party's matrix row: each of its files' cells is what
 * this download showed (the latest decides), then the party's state and the share's verdict
 * again. Runs in recordShareDownload's transaction.
 */
export function recordDelivery(
  db: Db,
  share: ShareRow,
  download: { id: string; recipientId: string | null; files: DownloadFile[] },
) {
  const party = download.recipientId ?? PLAIN_LINK;
  const n = share.file_count;
  const old = deliveryOf(db, share.id, party);
  const cells = old ? Buffer.from(old.cells, "latin1") : Buffer.alloc(n, CELL.none);
  const by = old
    ? decodeRuns<string | null>(JSON.parse(old.decided_by), n, null)
    : Array(n).fill(null);
  for (const f of download.files) {
    cells[f.file_idx] = cellOf(f.matched === 1, f.reported_sha256).charCodeAt(0);
    by[f.file_idx] = download.id;
  }
  const text = cells.toString("latin1");
  saveDelivery(db, {
    share_id: share.id,
    party,
    cells: text,
    decided_by: JSON.stringify(encodeRuns(by)),
    state: partyState(text),
  });
  setVerdict(db, share.id, verdictOf(db, share.id));
}

/** The share's verdict over its recipients, or over the plain link when it has none. */
function verdictOf(db: Db, shareId: string) {
  const stateOf = new Map(deliveryStatesOf(db, shareId).map((d) => [d.party, d.state]));
  const recipients = recipientIdsOf(db, shareId);
  const parties = recipients.length > 0 ? recipients : [PLAIN_LINK];
  return shareVerdict(parties.map((p) => stateOf.get(p) ?? "not_delivered"));
}

type MatrixRow = Receipt["matrix"][number];

/**
 * The receipt's matrix, from the share's delivery rows: a row per recipient, then the plain
 * link's when it completed a download (or the share has no recipients), each cell's deciding
 * download as its index in `downloads`.
 */
export function receiptMatrix(
  deliveries: DeliveryRow[],
  share: ShareRow,
  recipients: { id: string; email: string }[],
  downloadIndex: Map<string, number>,
): MatrixRow[] {
  const rows = new Map(deliveries.map((d) => [d.party, d]));
  const parties: { recipientId: string | null; email: string | null }[] = recipients.map((r) => ({
    recipientId: r.id,
    email: r.email,
  }));
  if (recipients.length === 0 || rows.has(PLAIN_LINK))
    parties.push({ recipientId: null, email: null });
  const n = share.file_count;
  return parties.map((p) => {
    const row = rows.get(p.recipientId ?? PLAIN_LINK);
    if (!row)
      return { ...p, state: "not_delivered", cells: CELL.none.repeat(n), decidedBy: [n, -1] };
    const runs = JSON.parse(row.decided_by) as (number | string | null)[];
    return {
      ...p,
      state: row.state,
      cells: row.cells,
      decidedBy: runs.map((v, i) =>
        i % 2 === 0 ? (v as number) : v === null ? -1 : (downloadIndex.get(v as string) ?? -1),
      ),
    };
  });
}
