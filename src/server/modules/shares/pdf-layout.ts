import PDFDocument from "pdfkit";
import { type Family, PdfFonts } from "./pdf-fonts";

/*
 * What the receipt, the audit report and the delivery note are laid out with: A4 pages, the
 * workspace at the top of each, "Page i of n" at the foot, headings, facts and tables that
 * continue on new pages. Text goes through PdfFonts, so every script prints as itself.
 */

export const PAGE = { width: 595.28, height: 841.89, margin: 48 };
export const CONTENT_WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.margin - 18;
export const INK = "#1f2933";
export const MUTED = "#616e7c";
const RULE = "#cbd2d9";

export interface Pdf {
  doc: PDFKit.PDFDocument;
  fonts: PdfFonts;
}
export interface Column {
  title: string;
  width: number;
  mono?: boolean;
  align?: "left" | "right";
}
/** A header at the top of every page: who sent it (and their logo), and what it is. */
export interface Branding {
  workspace: string;
  /** PNG or JPEG bytes, already bounded in size by the settings that stored them. */
  logo: Uint8Array | null;
  kind: string;
  reference: string;
}

export const when = (iso: string | null) =>
  iso ? `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC` : "-";

export function newPdf(title: string): Pdf {
  const doc = new PDFDocument({
    size: "A4",
    margin: PAGE.margin,
    bufferPages: true,
    info: { Title: title, Producer: "Consign", Creator: "Consign" },
  });
  return { doc, fonts: new PdfFonts(doc) };
}

/**
 * Cuts text to `width` points, in the middle, so that a long path keeps its file name. Used for
 * names and paths in table cells, never for prose (which wraps).
 */
export function clip({ fonts }: Pdf, text: string, width: number, size: number, family: Family) {
  let w = fonts.width(text, family, size);
  if (w <= width) return text;
  const chars = [...text];
  let keep = Math.floor((chars.length * width) / w);
  let cut = text;
  while (keep > 2 && w > width) {
    const head = Math.ceil((keep - 1) / 3);
    cut = `${chars.slice(0, head).join("")}…${chars.slice(chars.length - (keep - 1 - head)).join("")}`;
    w = fonts.width(cut, family, size);
    keep--;
  }
  return cut;
}

/** Every page's header and footer, then the document's bytes. */
export function finish({ doc, fonts }: Pdf, brand: Branding): Promise<Buffer> {
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
    let x = PAGE.margin;
    if (brand.logo) {
      doc.image(Buffer.from(brand.logo), x, 14, { fit: [90, 24], valign: "center" });
      x += 98;
    }
    doc.fillColor(INK);
    const name = clip({ doc, fonts }, brand.workspace, 250 - (x - PAGE.margin), 9, "bold");
    fonts.text(name, "bold", 9, { x, y: 22 }, { lineBreak: false });
    doc.fillColor(MUTED);
    fonts.text(
      `${brand.kind}  ${brand.reference}`,
      "regular",
      9,
      { x: PAGE.width - PAGE.margin - 250, y: 22 },
      { width: 250, align: "right", lineBreak: false },
    );
    fonts.text(
      `Page ${i + 1} of ${count}`,
      "regular",
      9,
      { x: PAGE.margin, y: PAGE.height - 30 },
      { width: CONTENT_WIDTH, align: "center", lineBreak: false },
    );
    doc.page.margins = margins;
  }
  doc.end();
  return done;
}

/** The document's title and the line under it. */
export function title(pdf: Pdf, text: string, subtitle: string) {
  pdf.doc.fillColor(INK);
  pdf.fonts.text(
    text,
    "bold",
    18,
    { x: PAGE.margin, y: PAGE.margin + 10 },
    { width: CONTENT_WIDTH },
  );
  pdf.doc.fillColor(MUTED);
  pdf.fonts.text(
    subtitle,
    "regular",
    10,
    { x: PAGE.margin, y: pdf.doc.y },
    { width: CONTENT_WIDTH },
  );
  pdf.doc.moveDown(0.8);
}

export function heading({ doc, fonts }: Pdf, text: string) {
  if (doc.y + 40 > BOTTOM) doc.addPage();
  doc.moveDown(0.6);
  doc.fillColor(INK);
  fonts.text(text, "bold", 12, { x: PAGE.margin, y: doc.y }, { width: CONTENT_WIDTH });
  doc.moveDown(0.3);
}

/** Prose that wraps (a message, a note): never cut. */
export function paragraph({ doc, fonts }: Pdf, text: string, size = 9, color = INK) {
  doc.fillColor(color);
  fonts.text(text, "regular", size, { x: PAGE.margin, y: doc.y }, { width: CONTENT_WIDTH });
}

export function facts({ doc, fonts }: Pdf, pairs: [string, string][]) {
  for (const [k, v] of pairs) {
    if (doc.y + 14 > BOTTOM) doc.addPage();
    const y = doc.y;
    doc.fillColor(MUTED);
    fonts.text(k, "bold", 9, { x: PAGE.margin, y }, { width: 110, lineBreak: false });
    doc.fillColor(INK);
    fonts.text(v, "regular", 9, { x: PAGE.margin + 110, y }, { width: CONTENT_WIDTH - 110 });
  }
}

/** A coloured box with a headline and a line under it: the verdict. */
export function banner(
  { doc, fonts }: Pdf,
  headline: string,
  detail: string,
  colors: { fill: string; ink: string },
) {
  const y = doc.y;
  const height = 24 + doc.fontSize(9).heightOfString(detail, { width: CONTENT_WIDTH - 20 });
  doc.rect(PAGE.margin, y, CONTENT_WIDTH, height).fill(colors.fill);
  doc.fillColor(colors.ink);
  fonts.text(headline, "bold", 12, { x: PAGE.margin + 10, y: y + 7 }, { lineBreak: false });
  doc.fillColor(INK);
  fonts.text(
    detail,
    "regular",
    9,
    { x: PAGE.margin + 10, y: y + 23 },
    { width: CONTENT_WIDTH - 20 },
  );
  doc.x = PAGE.margin;
  doc.y = y + height + 12;
}

/** A cell: its text, or `{ text, wrap: true }` for prose that wraps onto more lines (a comment). */
export type Cell = string | number | { text: string; wrap: true };

/**
 * A table that continues on new pages, its header repeated on each. A cell stays on one line,
 * cut in the middle if it must, except a wrapping cell, which makes its row as tall as its text.
 */
export function table(pdf: Pdf, columns: Column[], rows: Cell[][], size = 7.5) {
  const { doc, fonts } = pdf;
  const rowHeight = size + 3.5;
  const header = () => {
    doc.fillColor(MUTED);
    let x = PAGE.margin;
    const y = doc.y;
    for (const c of columns) {
      const options = { width: c.width - 4, align: c.align ?? "left", lineBreak: false } as const;
      fonts.text(c.title, "bold", size, { x, y }, options);
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
  header();
  for (const row of rows) {
    const height = rowHeightOf(pdf, columns, row, size, rowHeight);
    if (doc.y + height > BOTTOM) {
      doc.addPage();
      header();
    }
    const y = doc.y;
    let end = y + rowHeight;
    let x = PAGE.margin;
    doc.fillColor(INK);
    for (const [i, c] of columns.entries()) {
      const value = row[i]!;
      const family = c.mono ? "mono" : "regular";
      const fontSize = c.mono ? size - 1 : size;
      const width = c.width - 4;
      if (typeof value === "object") {
        fonts.text(value.text, family, fontSize, { x, y }, { width });
        end = Math.max(end, doc.y + 2);
      } else {
        const text =
          typeof value === "number" ? String(value) : clip(pdf, value, width, fontSize, family);
        fonts.text(
          text,
          family,
          fontSize,
          { x, y },
          { width, align: c.align ?? "left", lineBreak: false },
        );
      }
      x += c.width;
    }
    doc.y = end;
  }
  doc.x = PAGE.margin;
  doc.y += 8;
}

function rowHeightOf(pdf: Pdf, columns: Column[], row: Cell[], size: number, rowHeight: number) {
  let height = rowHeight;
  for (const [i, c] of columns.entries()) {
    const value = row[i];
    if (typeof value !== "object") continue;
    // An estimate for the page break (wrapping at words takes a little more than the width).
    const lines = Math.ceil((1.2 * pdf.fonts.width(value.text, "regular", size)) / (c.width - 4));
    height = Math.max(height, lines * (size + 2) + 3.5);
  }
  return height;
}
