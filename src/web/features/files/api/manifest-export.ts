import type { Manifest } from "@/contract/files";
import { csvField } from "@/contract/rules";

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
