/*
 * Formatting shared by the console, the public pages and the service's documents (receipt PDFs),
 * so a size reads the same wherever it is shown. Plain functions: no zod, no DOM.
 */

const units = ["B", "KB", "MB", "GB", "TB", "PB"];

/** 1536 -> "1.5 KB"; decimal units, as file managers and delivery reports show them. */
export function formatBytes(bytes: number | null | undefined): string {
  if (bytes == null) return "—";
  if (bytes < 1000) return `${bytes} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
