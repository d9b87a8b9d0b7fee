import type { Manifest } from "@/contract/files";

const defuse = (text: string) => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/**
 * RFC 4180: a field with a comma, quote or line break is quoted, and its quotes doubled. Text
 * that a spreadsheet would run as a formula (a leading =, +, -, @, tab or CR: a path can be
 * named so) gets a leading ' so it opens as text; the JSON export keeps paths exact.
 */
export function csvField(value: string | number | null): string {
  const text = value === null ? "" : typeof value === "number" ? String(value) : defuse(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The manifest as CSV with CRLF line ends, the way spreadsheets and checksum tools read it. */
export function manifestCsv(manifest: Pick<Manifest, "files">): string {
  const lines = ["path,size,modifiedAt,sha256"];
  for (const f of manifest.files) {
    lines.push([f.path, f.size, f.modifiedAt, f.sha256].map(csvField).join(","));
  }
  return `${lines.join("\r\n")}\r\n`;
}

/** A file name for the download: the folder's own name, without characters systems refuse. */
export function manifestFileName(folder: string, extension: "csv" | "json"): string {
  const name = folder.slice(folder.lastIndexOf("/") + 1) || "workspace";
  return `${name.replace(/[\\/:*?"<>|\p{Cc}]/gu, "_")} manifest.${extension}`;
}
