import type { DeliveryState } from "@/contract/receipt-verdict";
import type { Db } from "@/server/db/database";
import { stmt } from "@/server/db/statements";

/* The recipient × file matrix as kept (migration 0011): one row per share and party. */

export interface DeliveryRow {
  share_id: string;
  /** A recipient's id, or '' for the plain link. */
  party: string;
  /** One CELL character per file, in the share's file order. */
  cells: string;
  /** JSON run-length pairs (encodeRuns) of the id of the download that decided each cell. */
  decided_by: string;
  state: DeliveryState;
}

export const PLAIN_LINK = "";

export const deliveriesOf = (db: Db, shareId: string) =>
  stmt<[string], DeliveryRow>(db, "SELECT * FROM share_deliveries WHERE share_id = ?").all(shareId);

export const deliveryOf = (db: Db, shareId: string, party: string) =>
  stmt<[string, string], DeliveryRow>(
    db,
    "SELECT * FROM share_deliveries WHERE share_id = ? AND party = ?",
  ).get(shareId, party);

export const deliveryStatesOf = (db: Db, shareId: string) =>
  stmt<[string], { party: string; state: DeliveryState }>(
    db,
    "SELECT party, state FROM share_deliveries WHERE share_id = ?",
  ).all(shareId);

export const saveDelivery = (db: Db, row: DeliveryRow) =>
  stmt(
    db,
    `INSERT INTO share_deliveries (share_id, party, cells, decided_by, state)
     VALUES (@share_id, @party, @cells, @decided_by, @state)
     ON CONFLICT (share_id, party) DO UPDATE SET
       cells = excluded.cells, decided_by = excluded.decided_by, state = excluded.state`,
  ).run(row);

export const setVerdict = (db: Db, shareId: string, verdict: DeliveryState) =>
  stmt(db, "UPDATE shares SET verdict = ? WHERE id = ?").run(verdict, shareId);

export const recipientIdsOf = (db: Db, shareId: string) =>
  stmt<[string], string>(db, "SELECT id FROM share_recipients WHERE share_id = ?")
    .pluck()
    .all(shareId);
