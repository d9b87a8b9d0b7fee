import { useQuery } from "@tanstack/react-query";
import { DownloadIcon } from "lucide-react";
import { useRef } from "react";
import { formatBytes, formatCount, formatDateTime } from "@/browser/format";
import { saveFile } from "@/browser/save-file";
import type { Manifest } from "@/contract/files";
import { LoadError } from "@/web/components/load-error";
import { Alert, AlertDescription, AlertTitle } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogHeading } from "@/web/components/ui/dialog";
import { SkeletonRows } from "@/web/components/ui/skeleton";
import { manifestQueryOptions } from "@/web/features/files/api/get-manifest";
import { manifestCsv, manifestFileName } from "@/web/features/files/api/manifest-export";
import { useFixedRows } from "@/web/lib/use-fixed-rows";
import { useWorkspaceId } from "@/web/stores/session-store";

/** One line per row (paths are cut short, not wrapped): the rows are placed by arithmetic. */
const ROW_HEIGHT = 32;

function ManifestTable({ files }: { files: Manifest["files"] }) {
  const scrollRef = useRef<HTMLElement>(null);
  const { rows } = useFixedRows(scrollRef, {
    count: files.length,
    size: ROW_HEIGHT,
    overscan: 12,
    // The sticky header is the first row's height inside the same scroller.
    paddingStart: ROW_HEIGHT,
    paddingEnd: 0,
    scrollPaddingStart: ROW_HEIGHT,
    scrollPaddingEnd: 0,
  });
  const before = (rows[0]?.index ?? 0) * ROW_HEIGHT;
  const after = (files.length - 1 - (rows.at(-1)?.index ?? -1)) * ROW_HEIGHT;
  return (
    <section
      ref={scrollRef}
      className="max-h-[50vh] min-h-32 overflow-auto rounded-md border border-border"
      // A scrollable region must be reachable by keyboard to be scrolled without a mouse.
      // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
      tabIndex={0}
      aria-label="Files in the manifest"
    >
      <table className="w-full table-fixed border-collapse text-sm">
        <thead className="sticky top-0 bg-card shadow-[0_1px_0_var(--border)]">
          <tr className="h-8 text-left text-xs text-muted-foreground">
            <th scope="col" className="px-2 font-medium">
              Path
            </th>
            <th scope="col" className="w-24 px-2 text-right font-medium">
              Size
            </th>
            <th scope="col" className="hidden w-44 px-2 font-medium sm:table-cell">
              Modified
            </th>
          </tr>
        </thead>
        <tbody>
          {before > 0 && (
            <tr style={{ height: before }}>
              <td colSpan={3} />
            </tr>
          )}
          {rows.map((row) => {
            const f = files[row.index]!;
            return (
              <tr key={row.index} style={{ height: ROW_HEIGHT }} className="border-b border-border">
                <td className="truncate px-2" title={f.path}>
                  {f.path}
                </td>
                <td className="px-2 text-right tabular-nums text-muted-foreground">
                  {formatBytes(f.size)}
                </td>
                <td className="hidden truncate px-2 text-muted-foreground sm:table-cell">
                  {formatDateTime(f.modifiedAt)}
                </td>
              </tr>
            );
          })}
          {after > 0 && (
            <tr style={{ height: after }}>
              <td colSpan={3} />
            </tr>
          )}
        </tbody>
      </table>
    </section>
  );
}

/** Loaded when first opened: every file under `folder`, with downloads for delivery checks. */
export default function ManifestDialog({ folder, onClose }: { folder: string; onClose(): void }) {
  const workspaceId = useWorkspaceId();
  const manifest = useQuery(manifestQueryOptions(workspaceId, folder));
  const m = manifest.data;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      {/* sm: so it wins over the primitive’s max-w-lg: cn() does not merge classes. */}
      <DialogContent className="sm:max-w-3xl">
        <DialogHeading title={<>Manifest of {folder ? `“${folder}”` : "the workspace"}</>}>
          Every file in the folder and its subfolders, with size and checksum.
        </DialogHeading>
        {manifest.isPending ? (
          <SkeletonRows label="Loading the manifest" rows={6} rowClassName="h-7" />
        ) : manifest.isError ? (
          <LoadError
            title="Could not make the manifest"
            error={manifest.error}
            onRetry={() => void manifest.refetch()}
          />
        ) : (
          <>
            <dl className="flex gap-6 text-sm">
              <div>
                <dt className="text-muted-foreground">Files</dt>
                <dd className="font-medium tabular-nums">{formatCount(m!.fileCount)}</dd>
              </div>
              <div>
                <dt className="text-muted-foreground">Total size</dt>
                <dd
                  className="font-medium tabular-nums"
                  title={`${formatCount(m!.totalBytes)} bytes`}
                >
                  {formatBytes(m!.totalBytes)}
                </dd>
              </div>
            </dl>
            {m!.truncated && (
              <Alert tone="warning">
                <div className="grid gap-1">
                  <AlertTitle>Only the first {formatCount(m!.limit)} files are listed</AlertTitle>
                  <AlertDescription>
                    The folder holds more files than a manifest can list. Make manifests of its
                    subfolders to cover the rest.
                  </AlertDescription>
                </div>
              </Alert>
            )}
            {m!.files.length === 0 ? (
              <p className="text-sm text-muted-foreground">There are no files in this folder.</p>
            ) : (
              <ManifestTable files={m!.files} />
            )}
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <Button
                variant="outline"
                onClick={() =>
                  saveFile(
                    new Blob([manifestCsv(m!)], { type: "text/csv;charset=utf-8" }),
                    manifestFileName(folder, "csv"),
                  )
                }
              >
                <DownloadIcon aria-hidden="true" />
                Download CSV
              </Button>
              <Button
                variant="outline"
                onClick={() =>
                  saveFile(
                    new Blob([JSON.stringify(m, null, 2)], { type: "application/json" }),
                    manifestFileName(folder, "json"),
                  )
                }
              >
                <DownloadIcon aria-hidden="true" />
                Download JSON
              </Button>
            </div>
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
