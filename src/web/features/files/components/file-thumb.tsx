import { lazy, Suspense } from "react";
import type { FileEntry } from "@/contract/files";
import { hasPreview } from "@/web/features/files/api/get-preview";
import { cn } from "@/web/lib/cn";
import { FileTypeIcon } from "./file-icon";

interface ThumbProps {
  entry: FileEntry;
  className: string;
  iconClassName: string;
}

/** The icon in the thumbnail's box: while its code loads, and for good if that fails. */
function IconBox({ entry, className, iconClassName }: ThumbProps) {
  return (
    <div className={className}>
      <FileTypeIcon entry={entry} className={iconClassName} />
    </div>
  );
}

// Loaded with the first file that has a thumbnail, so a folder without media costs nothing.
const ThumbnailWhenOnScreen = lazy(() =>
  import("./file-thumb-image").catch(() => ({ default: IconBox })),
);

/**
 * An entry's picture in the list and the grid: its thumbnail (an image, a video's frame, a
 * PDF's first page, an audio file's waveform) once the row is on screen, else its type's icon.
 */
export function FileThumb({ entry, className, iconClassName }: ThumbProps) {
  const previewable = hasPreview(entry);
  const props = {
    entry,
    iconClassName,
    className: cn(
      "flex shrink-0 items-center justify-center overflow-hidden",
      previewable && "rounded-sm bg-muted",
      className,
    ),
  };
  if (!previewable) return <IconBox {...props} />;
  return (
    <Suspense fallback={<IconBox {...props} />}>
      <ThumbnailWhenOnScreen {...props} />
    </Suspense>
  );
}
