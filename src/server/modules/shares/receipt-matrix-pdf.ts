import { CELL, decodeRuns, deliveryLabel } from "@/contract/receipt-verdict";
import type { Receipt } from "@/contract/receipts";
import { type Cell, heading, MUTED, type Pdf, paragraph, table, when } from "./pdf-layout";

/*
 * Who holds which file, for the client's receipt: a line per recipient always, and a line per
 * recipient and file while that stays readable (up to MAX_DETAIL_ROWS); past it, only the files
 * that did not verify are listed one by one (the JSON and the CSV keep every cell).
 */

const MAX_DETAIL_ROWS = 500;
const MAX_FAILED_ROWS = 200;
const CELL_TEXT: Record<string, string> = {
  [CELL.verified]: "verified",
  [CELL.unchecked]: "received, not checked",
  [CELL.failed]: "did not match",
  [CELL.none]: "not downloaded",
};

type Row = Receipt["matrix"][number];
const party = (row: Row) => row.email ?? "Anyone with the plain link";
const tally = (cells: string, c: string) => cells.split(c).length - 1;

/** Each cell of a row with when the download that decided it completed. */
function cellsOf(r: Receipt, row: Row) {
  const by = decodeRuns<number>(row.decidedBy, r.files.length, -1);
  return r.files.map((f, i) => ({
    path: f.path,
    cell: row.cells[i] ?? CELL.none,
    at: by[i]! >= 0 ? (r.downloads[by[i]!]?.completedAt ?? null) : null,
  }));
}

export function deliveryMatrix(pdf: Pdf, r: Receipt) {
  if (r.matrix.length === 0) return;
  const n = r.files.length;
  heading(pdf, "Who received what");
  table(
    pdf,
    [
      { title: "Recipient", width: 175 },
      { title: "State", width: 110 },
      { title: "Verified", width: 55, align: "right" },
      { title: "Unchecked", width: 55, align: "right" },
      { title: "Failed", width: 45, align: "right" },
      { title: "Missing", width: 59, align: "right" },
    ],
    r.matrix.map((row) => [
      party(row),
      deliveryLabel[row.state],
      `${tally(row.cells, CELL.verified)} of ${n}`,
      tally(row.cells, CELL.unchecked),
      tally(row.cells, CELL.failed),
      n - row.cells.replaceAll(CELL.none, "").length,
    ]),
    8,
  );
  const detailed = r.matrix.length * n <= MAX_DETAIL_ROWS;
  const rows: Cell[][] = [];
  for (const row of r.matrix)
    for (const c of cellsOf(r, row))
      if (detailed || c.cell === CELL.failed)
        rows.push([party(row), c.path, CELL_TEXT[c.cell] ?? c.cell, when(c.at)]);
  if (!detailed) {
    paragraph(
      pdf,
      `${r.matrix.length} × ${n.toLocaleString("en")} files: each file of each recipient is in the receipt's CSV; here, only the files that did not match.`,
      8.5,
      MUTED,
    );
    pdf.doc.moveDown(0.4);
  }
  if (rows.length === 0) return;
  heading(pdf, detailed ? "Each file, by recipient" : "Files that did not match");
  table(
    pdf,
    [
      { title: "Recipient", width: 150 },
      { title: "File", width: 169 },
      { title: "State", width: 90 },
      { title: "When", width: 90 },
    ],
    rows.slice(0, detailed ? rows.length : MAX_FAILED_ROWS),
    8,
  );
}
