import {
  CELL,
  cellOf,
  type DeliveryState,
  partyState,
  shareVerdict,
} from "@/contract/receipt-verdict";
import type { Db } from "@/server/db/database";
import { completedFilesOf } from "./activity.repository";

/** One row of the recipient × file matrix: `recipientId` null is the plain link. */
export interface MatrixRow {
  recipientId: string | null;
  /** One CELL character per file, in the share's file order. */
  cells: string;
  /** Per file, the id of the download that decided its cell (null: none). */
  decidedBy: (string | null)[];
  state: DeliveryState;
}

const NONE = CELL.none.charCodeAt(0);

/**
 * The recipient × file matrix: for each recipient (and the plain link, when it completed a
 * download or the share has no recipients), each file's cell as its latest completed download
 * of it left it, and the share's verdict over the recipients (over the plain link without any).
 */
export function deliveryMatrix(db: Db, shareId: string, fileCount: number, recipientIds: string[]) {
  const rows = new Map<string | null, { cells: Uint8Array; decidedBy: (string | null)[] }>();
  const rowOf = (id: string | null) => {
    let row = rows.get(id);
    if (!row) {
      row = { cells: new Uint8Array(fileCount).fill(NONE), decidedBy: Array(fileCount).fill(null) };
      rows.set(id, row);
    }
    return row;
  };
  for (const id of recipientIds) rowOf(id);
  if (recipientIds.length === 0) rowOf(null);
  // Oldest first, so a later download of the same file overwrites the cell: the latest decides.
  for (const f of completedFilesOf(db, shareId)) {
    const row = rowOf(f.recipient_id);
    row.cells[f.file_idx] = cellOf(f.matched === 1, f.reported_sha256).charCodeAt(0);
    row.decidedBy[f.file_idx] = f.download_id;
  }
  const matrix: MatrixRow[] = [...rows].map(([recipientId, row]) => {
    const cells = Buffer.from(row.cells).toString("latin1");
    return { recipientId, cells, decidedBy: row.decidedBy, state: partyState(cells) };
  });
  const judged = matrix.filter((m) => recipientIds.length > 0 === (m.recipientId !== null));
  return { matrix, verdict: shareVerdict(judged.map((m) => m.state)) };
}
