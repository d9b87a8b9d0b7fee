import type { ProxyEntry } from "@/contract/media";
import { ProgressBar } from "@/web/components/ui/progress-bar";

/**
 * How far the rendition the viewer waits for is: queued, rendering with its progress, or
 * failed with the reason; and whether the original plays meanwhile.
 */
export function ProxyNotice({
  entry,
  what,
  fallback,
}: {
  entry: ProxyEntry | null;
  /** "The 720p proxy", "The waveform", "Page 3". */
  what: string;
  /** What shows meanwhile ("Playing the original meanwhile."), or why nothing does. */
  fallback: string;
}) {
  if (entry?.status === "ready") return null;
  if (entry?.status === "failed")
    return (
      <p role="status" className="text-sm text-white/85">
        {what} could not be made: {entry.error ?? "unknown reason"}. {fallback}
      </p>
    );
  const percent = entry?.progress != null ? Math.round(entry.progress * 100) : null;
  const state =
    entry?.status === "rendering"
      ? "is rendering"
      : entry?.status === "queued"
        ? "is queued"
        : "is not made yet";
  return (
    <div role="status" className="grid gap-1 text-sm text-white/85">
      <p>
        {what} {state}. {fallback}
      </p>
      {entry?.status === "rendering" && (
        <ProgressBar
          percent={percent}
          label={`${what}: progress`}
          unknownText="Rendering"
          onMedia
          className="max-w-xs"
        />
      )}
    </div>
  );
}
