export { formatBytes } from "@/contract/format";

const dateTimeFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: "medium",
  timeStyle: "short",
});

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return dateTimeFormat.format(new Date(iso));
}

const exactFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: "medium",
  timeStyle: "medium",
});

/** To the second: for moments that must be told apart (versions written a minute apart). */
export function formatExactDateTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return exactFormat.format(new Date(iso));
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const steps: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
  ["second", 1],
];

/** "in 12 days", "3 minutes ago": relative to `now` (injectable for tests). */
export function formatRelative(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  for (const [unit, size] of steps) {
    if (Math.abs(seconds) >= size || unit === "second") {
      return relative.format(Math.round(seconds / size), unit);
    }
  }
  return relative.format(0, "second");
}

/** "25 Nov 2026, 14:03:27 · 3 minutes ago": when, to the second, and how long ago. */
export function formatExactAndRelative(iso: string, now: number = Date.now()): string {
  return `${formatExactDateTime(iso)} · ${formatRelative(iso, now)}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString();
}
