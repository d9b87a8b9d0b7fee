import { formatBytes } from "@/contract/format";
import { deliveryLabel, deliveryMeaning, deliveryTone } from "@/contract/receipt-verdict";
import type { Receipt } from "@/contract/receipts";
import {
  type Branding,
  banner,
  CONTENT_WIDTH,
  facts,
  finish,
  heading,
  INK,
  MUTED,
  newPdf,
  PAGE,
  type Pdf,
  paragraph,
  table,
  title,
  when,
} from "./pdf-layout";
import { deliveryMatrix } from "./receipt-matrix-pdf";

/*
 * The documents a sender may hand to a client: the delivery receipt (the verdict, who received
 * which files, every checksum) and the delivery note. Neither carries an address, a failed
 * password or any other security event: those are in the sender's audit report (audit-pdf.ts).
 */

const TONES = {
  success: { fill: "#e3f9e5", ink: "#0e5a20" },
  warning: { fill: "#fff3c4", ink: "#8d2b0b" },
  danger: { fill: "#ffe3e3", ink: "#8a041a" },
  neutral: { fill: "#e4e7eb", ink: INK },
};

/** The verdict, worded as the console words it (one rule: contract/receipt-verdict.ts). */
export function verdictBanner(pdf: Pdf, r: Receipt) {
  banner(pdf, deliveryLabel[r.verdict], deliveryMeaning[r.verdict], TONES[deliveryTone[r.verdict]]);
}

/** Every file with its size and SHA-256, and how to check one. */
export function checksums(pdf: Pdf, r: Receipt) {
  heading(pdf, "Files and checksums (SHA-256)");
  paragraph(
    pdf,
    "Check a received file with: sha256sum <file> (Linux), shasum -a 256 <file> (macOS), certutil -hashfile <file> SHA256 (Windows).",
    8.5,
    MUTED,
  );
  pdf.doc.moveDown(0.4);
  table(
    pdf,
    [
      { title: "File", width: 183 },
      { title: "Size", width: 56, align: "right" },
      { title: "SHA-256", width: 260, mono: true },
    ],
    r.files.map((f) => [f.path, formatBytes(f.sizeBytes), f.sha256]),
  );
}

const brand = (r: Receipt, logo: Uint8Array | null, kind: string): Branding => ({
  workspace: r.share.workspace.name,
  logo,
  kind,
  reference: r.receiptId,
});

/** The receipt a producer forwards to a client as proof: the verdict, who got what, every checksum. */
export function receiptPdf(r: Receipt, logo: Uint8Array | null): Promise<Buffer> {
  const pdf = newPdf(`Delivery receipt: ${r.share.title}`);
  title(pdf, r.share.title, `Delivery receipt from ${r.share.workspace.name}`);
  verdictBanner(pdf, r);
  facts(pdf, [
    ["Receipt", r.receiptId],
    ["Shared", when(r.share.createdAt)],
    ["Available until", when(r.share.expiresAt)],
    ["Files", `${r.files.length.toLocaleString("en")} (${formatBytes(r.totalBytes ?? 0)})`],
    ["Generated", when(r.generatedAt)],
  ]);
  deliveryMatrix(pdf, r);
  checksums(pdf, r);
  return finish(pdf, brand(r, logo, "Delivery receipt"));
}

/** A printable note to go with the delivery: what was sent, to whom, each file's checksum, a signature line. */
export function deliveryNotePdf(r: Receipt, logo: Uint8Array | null): Promise<Buffer> {
  const pdf = newPdf(`Delivery note: ${r.share.title}`);
  title(pdf, "Delivery note", `From ${r.share.workspace.name}`);
  facts(pdf, [
    ["Delivery", r.share.title],
    ["Date", when(r.share.createdAt)],
    ["To", r.recipients.map((p) => p.email).join(", ") || "by link"],
    ["Available until", when(r.share.expiresAt)],
    ["Contents", `${r.files.length.toLocaleString("en")} files, ${formatBytes(r.totalBytes ?? 0)}`],
    ["Reference", r.receiptId],
  ]);
  if (r.share.message) {
    heading(pdf, "Message");
    paragraph(pdf, r.share.message, 10);
  }
  heading(pdf, "Items");
  table(
    pdf,
    [
      { title: "Item", width: 300 },
      { title: "Type", width: 60 },
      { title: "Files", width: 60, align: "right" },
      { title: "Size", width: 79, align: "right" },
    ],
    r.items.map((i) => [i.path, i.type, i.fileCount, formatBytes(i.sizeBytes)]),
    8.5,
  );
  checksums(pdf, r);
  signatureLines(pdf);
  return finish(pdf, brand(r, logo, "Delivery note"));
}

function signatureLines({ doc, fonts }: Pdf) {
  if (doc.y + 90 > PAGE.height - PAGE.margin - 18) doc.addPage();
  doc.moveDown(1.5);
  const y = doc.y;
  doc.fillColor(INK);
  for (const [i, label] of ["Received by", "Date", "Signature"].entries()) {
    const x = PAGE.margin + i * 170;
    doc
      .moveTo(x, y + 28)
      .lineTo(x + 150, y + 28)
      .strokeColor(INK)
      .lineWidth(0.7)
      .stroke();
    fonts.text(label, "regular", 10, { x, y: y + 33 }, { lineBreak: false, width: CONTENT_WIDTH });
  }
}
