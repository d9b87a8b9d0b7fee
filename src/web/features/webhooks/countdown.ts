/** "in 4 min 05 s" / "due now": a countdown precise to the second. */
export function formatCountdown(iso: string, now: number): string {
  const total = Math.round((new Date(iso).getTime() - now) / 1000);
  if (total <= 0) return "due now";
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  if (h > 0) return `in ${h} h ${String(m).padStart(2, "0")} min`;
  if (m > 0) return `in ${m} min ${String(s).padStart(2, "0")} s`;
  return `in ${s} s`;
}
