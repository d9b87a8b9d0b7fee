import PDFDocument from "pdfkit";
import { deliveryLabel, deliveryMeaning, deliveryTone } from "@/contract/receipt-verdict";
import type { Receipt } from "@/contract/receipts";

/*
 * The receipt and the delivery note as PDF (pdfkit). The standard PDF fonts are used (nothing
 * embedded, so ten thousand rows render in about a second); they hold Latin-1 only, so other
 * characters print as "?" here: the JSON and CSV keep every name exact.
 */

const PAGE = { width: 595.28, height: 841.89, margin: 48 };
const BOTTOM = PAGE.height - PAGE.margin - 18;
const INK = "#1f2933";
const MUTED = "#616e7c";
const RULE = "#cbd2d9";

type Doc = PDFKit.PDFDocument;
interface Column {
  title: string;
  width: number;
  mono?: boolean;
  align?: "left" | "right";
}

const latin1 = (s: string) => s.replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, "?");

/**
 * Cuts text to about `width` points at `size` (Helvetica's mean glyph is about half its size),
 * in the middle, so that a long path keeps its file name.
 */
function clip(text: string, width: number, size: number, mono = false) {
  const max = Math.floor(width / (size * (mono ? 0.6 : 0.5)));
  const t = latin1(text);
  if (t.length <= max) return t;
  const head = Math.ceil((max - 1) / 3);
  return `${t.slice(0, head)}~${t.slice(t.length - (max - 1 - head))}`;
}

const sizeText = (n: number) => {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let v = n;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(v < 10 ? 2 : 1)} ${units[u]}`;
};
const when = (iso: string | null) => (iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "-");

function newDoc(title: string) {
  return new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    bufferPages: true,
    info: { Title: latin1(title), Producer: "Consign", Creator: "Consign" },
  });
}

/** Every page: the workspace and the document's name at the top, "Page i of n" at the foot. */
function finish(doc: Doc, workspace: string, kind: string, reference: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const { start, count } = doc.bufferedPageRange();
  for (let i = start; i < start + count; i++) {
    doc.switchToPage(i);
    // Writing in the margins must not make pdfkit start a new page.
    const margins = doc.page.margins;
    doc.page.margins = { top: 0, bottom: 0, left: 0, right: 0 };
    doc.font("Helvetica-Bold").fontSize(9).fillColor(INK);
    doc.text(clip(workspace, 300, 9), PAGE.margin, 22, { lineBreak: false });
    doc.font("Helvetica").fillColor(MUTED);
    doc.text(`${kind}  ${reference}`, PAGE.width - PAGE.margin - 250, 22, {
      width: 250,
      align: "right",
      lineBreak: false,
    });
    doc.text(`Page ${i + 1} of ${count}`, PAGE.margin, PAGE.height - 30, {
      width: PAGE.width - 2 * PAGE.margin,
      align: "center",
      lineBreak: false,
    });
    doc.page.margins = margins;
  }
  doc.end();
  return done;
}

/**
 * A table that continues on new pages, its header repeated on each. Each page's rows are drawn
 * a column at a time, so the font changes a few times per page, not at every one of a
 * 10,000-file share's 30,000 cells. A cell never wraps (`lineBreak: false`), so no cell can push
 * the rows below it down.
 */
function table(doc: Doc, columns: Column[], rows: (string | number)[][], size = 7.5) {
  const rowHeight = size + 3.5;
  const header = () => {
    doc.font("Helvetica-Bold").fontSize(size).fillColor(MUTED);
    let x = PAGE.margin;
    const y = doc.y;
    for (const c of columns) {
      doc.text(c.title, x, y, { width: c.width - 4, align: c.align ?? "left", lineBreak: false });
      x += c.width;
    }
    doc.y = y + rowHeight;
    doc
      .moveTo(PAGE.margin, doc.y - 2)
      .lineTo(x, doc.y - 2)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
  };
  if (doc.y + 2 * rowHeight > BOTTOM) doc.addPage();
  let next = 0;
  do {
    if (next > 0) doc.addPage();
    header();
    const top = doc.y;
    const fits = Math.max(1, Math.floor((BOTTOM - top) / rowHeight));
    const page = rows.slice(next, next + fits);
    let x = PAGE.margin;
    for (const [i, c] of columns.entries()) {
      const fontSize = c.mono ? size - 1 : size;
      doc
        .font(c.mono ? "Courier" : "Helvetica")
        .fontSize(fontSize)
        .fillColor(INK);
      const options = { width: c.width - 4, align: c.align ?? "left", lineBreak: false } as const;
      for (const [r, row] of page.entries()) {
        const value = row[i]!;
        const text =
          typeof value === "number" ? String(value) : clip(value, c.width - 4, fontSize, c.mono);
        doc.text(text, x, top + r * rowHeight, options);
      }
      x += c.width;
    }
    doc.y = top + page.length * rowHeight;
    next += page.length;
  } while (next < rows.length);
  doc.x = PAGE.margin;
  doc.y += 8;
}

function heading(doc: Doc, text: string) {
  if (doc.y + 40 > BOTTOM) doc.addPage();
  doc.moveDown(0.6);
  doc.font("Helvetica-Bold").fontSize(12).fillColor(INK).text(latin1(text), PAGE.margin, doc.y);
  doc.moveDown(0.3);
}

function facts(doc: Doc, pairs: [string, string][]) {
  for (const [k, v] of pairs) {
    const y = doc.y;
    doc
      .font("Helvetica-Bold")
      .fontSize(9)
      .fillColor(MUTED)
      .text(k, PAGE.margin, y, { width: 110, lineBreak: false });
    doc
      .font("Helvetica")
      .fillColor(INK)
      .text(latin1(v), PAGE.margin + 110, y, { width: PAGE.width - 2 * PAGE.margin - 110 });
  }
}

const fileRows = (r: Receipt) => r.files.map((f) => [f.path, sizeText(f.sizeBytes), f.sha256]);
const fileColumns: Column[] = [
  { title: "File", width: 183 },
  { title: "Size", width: 56, align: "right" },
  { title: "SHA-256", width: 260, mono: true },
];

const verdictLook = {
  success: { fill: "#e3f9e5", ink: "#0e5a20" },
  warning: { fill: "#fff3c4", ink: "#8d2b0b" },
  danger: { fill: "#ffe3e3", ink: "#8a041a" },
  neutral: { fill: "#f0f0f0", ink: INK },
};

/** The receipt a producer forwards as proof: integrity first, then who got what, then every checksum. */
export function receiptPdf(r: Receipt): Promise<Buffer> {
  const doc = newDoc(`Delivery receipt: ${r.share.title}`);
  doc
    .font("Helvetica-Bold")
    .fontSize(18)
    .fillColor(INK)
    .text(latin1(r.share.title), PAGE.margin, PAGE.margin + 6);
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor(MUTED)
    .text(`Delivery receipt from ${latin1(r.share.workspace.name)}`);
  doc.moveDown(0.8);

  const completed = r.downloads.filter((d) => d.completedAt !== null).length;
  const look = verdictLook[deliveryTone[r.verdict]];
  const boxY = doc.y;
  doc.rect(PAGE.margin, boxY, PAGE.width - 2 * PAGE.margin, 38).fill(look.fill);
  doc.font("Helvetica-Bold").fontSize(12).fillColor(look.ink);
  doc.text(deliveryLabel[r.verdict].toUpperCase(), PAGE.margin + 10, boxY + 7, {
    lineBreak: false,
  });
  doc.font("Helvetica").fontSize(9).fillColor(INK);
  doc.text(deliveryMeaning[r.verdict], PAGE.margin + 10, boxY + 23, { lineBreak: false });
  doc.y = boxY + 50;
  doc.x = PAGE.margin;

  facts(doc, [
    ["Receipt", r.receiptId],
    ["Status", r.share.status],
    ["Shared", when(r.share.createdAt)],
    ["Expires", when(r.share.expiresAt)],
    ["Files", `${r.files.length.toLocaleString("en")} (${sizeText(r.totalBytes ?? 0)})`],
    [
      "Downloads",
      `${completed} completed${r.share.maxDownloads === null ? "" : ` of at most ${r.share.maxDownloads}`}`,
    ],
    ["Generated", when(r.generatedAt)],
  ]);

  heading(doc, "Recipients");
  const recipientRows = r.recipients.map((p) => [
    p.email,
    p.viewed ? "yes" : "no",
    p.downloaded ? "all files" : `${p.filesDownloaded} of ${r.files.length}`,
    p.verified ? "yes" : "no",
    when(p.lastDownloadAt),
  ]);
  recipientRows.push([
    "Anyone with the plain link",
    `${r.anonymous.views} views`,
    `${r.anonymous.downloads} downloads`,
    `${r.anonymous.verifiedDownloads} verified`,
    when(r.anonymous.lastDownloadAt),
  ]);
  table(
    doc,
    [
      { title: "Recipient", width: 175 },
      { title: "Viewed", width: 60 },
      { title: "Downloaded", width: 90 },
      { title: "Verified", width: 70 },
      { title: "Last download", width: 104 },
    ],
    recipientRows,
    8,
  );

  if (r.downloads.length > 0) {
    heading(doc, "Downloads");
    table(
      doc,
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
        sizeText(d.bytes),
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
    if (mismatches.length > 0) {
      heading(doc, "Files that did not verify");
      table(
        doc,
        [
          { title: "Who", width: 100 },
          { title: "File", width: 139 },
          { title: "SHA-256 received", width: 260, mono: true },
        ],
        mismatches,
      );
    }
  }

  heading(doc, "Timeline");
  table(
    doc,
    [
      { title: "When", width: 92 },
      { title: "Event", width: 80 },
      { title: "Who", width: 140 },
      { title: "Detail", width: 187 },
    ],
    r.timeline.map((e) => [
      when(e.at),
      e.type.replace("_", " "),
      e.who?.email ?? (e.who ? "anonymous" : ""),
      e.detail ?? "",
    ]),
    8,
  );

  heading(doc, "Files and checksums (SHA-256)");
  table(doc, fileColumns, fileRows(r));
  return finish(doc, r.share.workspace.name, "Delivery receipt", r.receiptId);
}

/** A printable note to go with the delivery: what was sent, to whom, each file's checksum, a signature line. */
export function deliveryNotePdf(r: Receipt): Promise<Buffer> {
  const doc = newDoc(`Delivery note: ${r.share.title}`);
  doc
    .font("Helvetica-Bold")
    .fontSize(20)
    .fillColor(INK)
    .text("Delivery note", PAGE.margin, PAGE.margin + 6);
  doc
    .font("Helvetica")
    .fontSize(10)
    .fillColor(MUTED)
    .text(`From ${latin1(r.share.workspace.name)}`);
  doc.moveDown(0.8);
  facts(doc, [
    ["Delivery", r.share.title],
    ["Date", when(r.share.createdAt)],
    ["To", r.recipients.map((p) => p.email).join(", ") || "by link"],
    ["Available until", when(r.share.expiresAt)],
    ["Contents", `${r.files.length.toLocaleString("en")} files, ${sizeText(r.totalBytes ?? 0)}`],
    ["Reference", r.receiptId],
  ]);
  if (r.share.message) {
    heading(doc, "Message");
    doc
      .font("Helvetica")
      .fontSize(10)
      .fillColor(INK)
      .text(latin1(r.share.message), PAGE.margin, doc.y, {
        width: PAGE.width - 2 * PAGE.margin,
      });
  }
  heading(doc, "Items");
  table(
    doc,
    [
      { title: "Item", width: 300 },
      { title: "Type", width: 60 },
      { title: "Files", width: 60, align: "right" },
      { title: "Size", width: 79, align: "right" },
    ],
    r.items.map((i) => [i.path, i.type, i.fileCount, sizeText(i.sizeBytes)]),
    8.5,
  );
  heading(doc, "Files and checksums (SHA-256)");
  doc
    .font("Helvetica")
    .fontSize(8.5)
    .fillColor(MUTED)
    .text(
      "Check a received file with: sha256sum <file> (Linux), shasum -a 256 <file> (macOS), certutil -hashfile <file> SHA256 (Windows).",
      PAGE.margin,
      doc.y,
      { width: PAGE.width - 2 * PAGE.margin },
    );
  doc.moveDown(0.4);
  table(doc, fileColumns, fileRows(r));
  if (doc.y + 90 > BOTTOM) doc.addPage();
  doc.moveDown(1.5);
  const y = doc.y;
  doc.font("Helvetica").fontSize(10).fillColor(INK);
  for (const [i, label] of ["Received by", "Date", "Signature"].entries()) {
    const x = PAGE.margin + i * 170;
    doc
      .moveTo(x, y + 28)
      .lineTo(x + 150, y + 28)
      .strokeColor(INK)
      .lineWidth(0.7)
      .stroke();
    doc.text(label, x, y + 33, { lineBreak: false });
  }
  return finish(doc, r.share.workspace.name, "Delivery note", r.receiptId);
}
