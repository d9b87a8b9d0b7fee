import { CELL, cellOf, encodeRuns, partyState, shareVerdict } from "@/contract/receipt-verdict";
import type { Migration } from ".";

/**
 * The recipient × file matrix, kept as downloads complete rather than read from every
 * downloaded file on each receipt (10,000 files × 50 downloads are 500,000 rows): per share
 * and party (a recipient's id, or '' for the plain link) one CELL character per file (what the
 * party's latest completed download of that file showed), which download decided each cell
 * (run-length pairs of download ids, JSON), and the party's state; and on the share its verdict
 * (contract/receipt-verdict.ts), indexed for the Shares list's filter. Existing downloads are
 * replayed oldest first, as recordShareDownload applies them.
 */
export const shareDeliveries: Migration = {
  version: 11,
  name: "share-deliveries",
  up(db) {
    db.exec(`
      CREATE TABLE share_deliveries (
        share_id TEXT NOT NULL REFERENCES shares(id),
        party TEXT NOT NULL,
        cells TEXT NOT NULL,
        decided_by TEXT NOT NULL,
        state TEXT NOT NULL,
        PRIMARY KEY (share_id, party)
      ) WITHOUT ROWID;
      ALTER TABLE shares ADD COLUMN verdict TEXT NOT NULL DEFAULT 'not_delivered';
      CREATE INDEX shares_verdict ON shares (workspace_id, verdict, id);
    `);
    const files = db.prepare(
      `SELECT d.id, coalesce(d.recipient_id, '') AS party, df.file_idx, df.matched, df.reported_sha256
       FROM share_downloads d JOIN share_download_files df ON df.download_id = d.id
       WHERE d.share_id = ? AND d.completed_at IS NOT NULL ORDER BY d.completed_at, d.id, df.idx`,
    );
    const insert = db.prepare(
      "INSERT INTO share_deliveries (share_id, party, cells, decided_by, state) VALUES (?, ?, ?, ?, ?)",
    );
    const setVerdict = db.prepare("UPDATE shares SET verdict = ? WHERE id = ?");
    const shares = db
      .prepare(
        `SELECT s.id, s.file_count, (SELECT count(*) FROM share_recipients r WHERE r.share_id = s.id) AS recipients
         FROM shares s WHERE EXISTS (SELECT 1 FROM share_downloads d WHERE d.share_id = s.id AND d.completed_at IS NOT NULL)`,
      )
      .all() as { id: string; file_count: number; recipients: number }[];
    for (const share of shares) {
      const rows = new Map<string, { cells: string[]; by: (string | null)[] }>();
      for (const f of files.iterate(share.id) as Iterable<{
        id: string;
        party: string;
        file_idx: number;
        matched: 0 | 1;
        reported_sha256: string | null;
      }>) {
        let row = rows.get(f.party);
        if (!row) {
          row = {
            cells: Array(share.file_count).fill(CELL.none),
            by: Array(share.file_count).fill(null),
          };
          rows.set(f.party, row);
        }
        row.cells[f.file_idx] = cellOf(f.matched === 1, f.reported_sha256);
        row.by[f.file_idx] = f.id;
      }
      const states: string[] = [];
      for (const [party, row] of rows) {
        const cells = row.cells.join("");
        const state = partyState(cells);
        if (share.recipients > 0 === (party !== "")) states.push(state);
        insert.run(share.id, party, cells, JSON.stringify(encodeRuns(row.by)), state);
      }
      const judged = share.recipients > 0 ? share.recipients : 1;
      const verdict = shareVerdict([
        ...(states as ReturnType<typeof partyState>[]),
        ...Array(judged - states.length).fill("not_delivered"),
      ]);
      setVerdict.run(verdict, share.id);
    }
  },
};
