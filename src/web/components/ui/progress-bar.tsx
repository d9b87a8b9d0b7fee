import { cn } from "@/web/lib/cn";

/**
 * Progress as a progressbar with its percentage beside it. Without a known total it has no
 * value, which assistive technology reads as busy, and `unknownText` says why.
 */
export function ProgressBar({
  percent,
  label,
  unknownText,
  stopped,
  onMedia,
  className,
}: {
  percent: number | null;
  label: string;
  unknownText: string;
  /** Failed or cancelled: drawn grey. */
  stopped?: boolean;
  /** Drawn on the viewer's black surface, where the theme's muted colours lack contrast. */
  onMedia?: boolean;
  className?: string;
}) {
  return (
    <div className={cn("flex min-w-0 items-center gap-2", className)}>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={percent === null ? unknownText : `${percent} %`}
        className={cn(
          "h-2 min-w-12 flex-1 overflow-hidden rounded-full",
          onMedia ? "bg-white/25" : "bg-muted",
        )}
      >
        <div
          className={cn(
            "h-full rounded-full transition-[width]",
            stopped ? "bg-muted-foreground" : "bg-primary",
            percent === null && "w-1/3 animate-pulse motion-reduce:animate-none",
          )}
          style={percent === null ? undefined : { width: `${percent}%` }}
        />
      </div>
      <span
        className={cn(
          "w-10 shrink-0 text-right text-xs tabular-nums",
          onMedia ? "text-white/85" : "text-muted-foreground",
        )}
      >
        {percent === null ? "—" : `${percent} %`}
      </span>
    </div>
  );
}
