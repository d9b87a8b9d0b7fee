import { ImageOffIcon, PaperclipIcon } from "lucide-react";
import type { PortalUpload } from "@/contract/portals";
import { baseName } from "@/contract/rules";
import { Skeleton } from "@/web/components/ui/skeleton";
import { cn } from "@/web/lib/cn";
import { isPreviewable, usePreviewUrl } from "@/web/lib/file-preview";

/** One image file's thumbnail, named by the file (the row reads as its files). */
export function UploadThumb({
  workspaceId,
  path,
  className,
}: {
  workspaceId: string;
  path: string;
  className?: string;
}) {
  const { url, isError } = usePreviewUrl(workspaceId, path);
  const name = baseName(path);
  const box = cn("shrink-0 rounded-md border border-border", className);
  if (url) return <img src={url} alt={name} title={name} className={cn(box, "object-cover")} />;
  if (isError)
    return (
      <span className={cn(box, "grid place-items-center bg-muted")} title={name}>
        <ImageOffIcon className="size-4 text-muted-foreground" aria-label={`${name}: no preview`} />
      </span>
    );
  return <Skeleton className={box} />;
}

/**
 * The first image files' thumbnails; an upload without images shows a file mark instead, so
 * every row keeps its shape. Only rows in view are rendered, so only their images are fetched.
 */
export function UploadThumbs({
  workspaceId,
  upload,
  max,
  className,
}: {
  workspaceId: string;
  upload: PortalUpload;
  max: number;
  className?: string;
}) {
  const images = upload.files.filter((f) => isPreviewable(f.mime)).slice(0, max);
  // One width whatever the count, so every row's text starts in line.
  const width = `${max * 4 + (max - 1) * 0.25}rem`;
  if (images.length === 0)
    return (
      <span aria-hidden="true" className={cn("shrink-0", className)} style={{ width }}>
        <span className="grid size-16 place-items-center rounded-md border border-border bg-muted">
          <PaperclipIcon className="size-5 text-muted-foreground" />
        </span>
      </span>
    );
  return (
    <span className={cn("flex shrink-0 gap-1", className)} style={{ width }}>
      {images.map((f) => (
        <UploadThumb key={f.path} workspaceId={workspaceId} path={f.path} className="size-16" />
      ))}
    </span>
  );
}
