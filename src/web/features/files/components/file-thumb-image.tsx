import { useRef } from "react";
import type { FileEntry } from "@/contract/files";
import { usePreviewUrl } from "@/web/lib/file-preview";
import { useOnScreen } from "@/web/lib/use-on-screen";
import { useWorkspaceId } from "@/web/stores/session-store";
import { FileTypeIcon } from "./file-icon";

/** The thumbnail, asked for only while it is on screen; the type's icon until it arrives. */
function Thumbnail({ entry, iconClassName }: { entry: FileEntry; iconClassName: string }) {
  const { url } = usePreviewUrl(useWorkspaceId(), entry.path, true, entry.sha256);
  return url ? (
    <img src={url} alt="" className="size-full object-cover" draggable={false} />
  ) : (
    <FileTypeIcon entry={entry} className={iconClassName} />
  );
}

/**
 * Rows the virtualizer keeps just outside the view ask for nothing, and a request still under
 * way when its row is scrolled past is cancelled (the query loses its last observer).
 */
export default function ThumbnailWhenOnScreen({
  entry,
  className,
  iconClassName,
}: {
  entry: FileEntry;
  className: string;
  iconClassName: string;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const onScreen = useOnScreen(ref, true);
  return (
    <div ref={ref} data-thumb={entry.name} className={className}>
      {onScreen ? (
        <Thumbnail entry={entry} iconClassName={iconClassName} />
      ) : (
        <FileTypeIcon entry={entry} className={iconClassName} />
      )}
    </div>
  );
}
