import { CopyIcon, EyeIcon, InfoIcon, XIcon } from "lucide-react";
import type { ReactNode } from "react";
import { formatBytes, formatCount, formatDateTime } from "@/browser/format";
import type { FileEntry } from "@/contract/files";
import { Button } from "@/web/components/ui/button";
import { Sheet, SheetContent, SheetTitle } from "@/web/components/ui/sheet";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/web/components/ui/tabs";
import { hasPreview } from "@/web/features/files/api/get-preview";
import { canView, viewEntry } from "@/web/features/files/state/viewable";
import { copyText } from "@/web/lib/clipboard";
import { usePreviewUrl } from "@/web/lib/file-preview";
import { describeType, FileTypeIcon } from "./file-icon";
import { VersionsList } from "./versions-list";

export type DetailsTab = "details" | "versions";

/**
 * The thumbnail (an image, a video frame, a first page, a waveform); the type's icon for
 * anything else, and until the thumbnail arrives. Media opens in the viewer from here.
 */
function Preview({ workspaceId, entry }: { workspaceId: string; entry: FileEntry }) {
  const { url } = usePreviewUrl(workspaceId, entry.path, hasPreview(entry), entry.sha256);
  return (
    <div className="relative mb-4 flex min-h-24 items-center justify-center rounded-md bg-muted p-2">
      {canView(entry) && (
        <Button
          size="sm"
          variant="outline"
          className="absolute bottom-2 right-2"
          aria-label={`View ${entry.name}`}
          onClick={() => viewEntry(workspaceId, entry)}
        >
          <EyeIcon aria-hidden="true" />
          View
        </Button>
      )}
      {url ? (
        <img
          src={url}
          alt={`Preview of ${entry.name}`}
          className="max-h-60 max-w-full rounded-sm object-contain"
        />
      ) : (
        <FileTypeIcon entry={entry} className="my-4 size-12" />
      )}
    </div>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 text-sm">{children}</dd>
    </div>
  );
}

/** What Details lists of an entry. */
function EntryFacts({ entry }: { entry: FileEntry }) {
  const isFile = entry.type === "file";
  return (
    <dl className="grid gap-3">
      <Row label="Type">{describeType(entry)}</Row>
      {isFile ? (
        <Row label="Size">
          {formatBytes(entry.sizeBytes)}
          {entry.sizeBytes != null && entry.sizeBytes >= 1000 && (
            <span className="text-muted-foreground"> ({formatCount(entry.sizeBytes)} bytes)</span>
          )}
        </Row>
      ) : (
        <Row label="Contains">
          {formatCount(entry.childCount ?? 0)} item{entry.childCount === 1 ? "" : "s"}
        </Row>
      )}
      <Row label="Created">{formatDateTime(entry.createdAt)}</Row>
      <Row label="Modified">{formatDateTime(entry.modifiedAt)}</Row>
      <Row label="Path">
        <div className="flex items-start gap-1">
          <code className="min-w-0 flex-1 break-all font-mono text-xs">{entry.path}</code>
          <Button
            size="icon-sm"
            variant="ghost"
            aria-label="Copy the path"
            title="Copy the path"
            onClick={() => void copyText(entry.path, "Copied the path")}
          >
            <CopyIcon aria-hidden="true" />
          </Button>
        </div>
      </Row>
      {isFile && (
        <>
          <Row label="Versions">
            {formatCount(entry.versionCount)} earlier version
            {entry.versionCount === 1 ? "" : "s"} kept
          </Row>
          <Row label="SHA-256">
            <code className="break-all font-mono text-xs">{entry.sha256 ?? "—"}</code>
          </Row>
        </>
      )}
    </dl>
  );
}

interface DetailsProps {
  workspaceId: string;
  entry: FileEntry | null;
  selected: number;
  canWrite: boolean;
  tab: DetailsTab;
  onTabChange(tab: DetailsTab): void;
}

function DetailsBody({ workspaceId, entry, selected, canWrite, tab, onTabChange }: DetailsProps) {
  const isFile = entry?.type === "file";
  return (
    <>
      {selected > 1 && (
        <p className="text-sm text-muted-foreground">
          {formatCount(selected)} selected; showing the focused item.
        </p>
      )}
      {!entry ? (
        <div className="grid justify-items-center gap-2 py-8 text-center text-sm text-muted-foreground">
          <InfoIcon className="size-6" aria-hidden="true" />
          Select an item to see its details.
        </div>
      ) : (
        <Tabs
          value={isFile ? tab : "details"}
          onValueChange={(v) => onTabChange(v as DetailsTab)}
          className="grid gap-4"
        >
          <TabsList className="w-full">
            <TabsTrigger value="details" className="flex-1">
              Details
            </TabsTrigger>
            {isFile && (
              <TabsTrigger value="versions" className="flex-1">
                Versions
              </TabsTrigger>
            )}
          </TabsList>
          <TabsContent value="details">
            <Preview workspaceId={workspaceId} entry={entry} />
            <EntryFacts entry={entry} />
          </TabsContent>
          {isFile && (
            <TabsContent value="versions">
              <VersionsList workspaceId={workspaceId} entry={entry} canWrite={canWrite} />
            </TabsContent>
          )}
        </Tabs>
      )}
    </>
  );
}

/**
 * Loaded when first opened: the focused entry's facts, and a file's versions. Beside the list on
 * wide screens; on narrow ones a sheet over it, which Esc or a tap outside closes.
 */
export default function DetailsPanel({
  beside,
  onClose,
  ...props
}: DetailsProps & { beside: boolean; onClose(): void }) {
  const title = props.entry ? props.entry.name : "Details";
  if (!beside)
    return (
      <Sheet open onOpenChange={(open) => !open && onClose()}>
        <SheetContent
          // Named as the panel is beside the list; the title is the entry's name.
          aria-label="Details"
          aria-labelledby={undefined}
          aria-describedby={undefined}
          className="max-w-md p-4"
        >
          <SheetTitle className="truncate text-base">{title}</SheetTitle>
          <DetailsBody {...props} />
        </SheetContent>
      </Sheet>
    );
  return (
    <aside
      aria-label="Details"
      className="flex w-80 shrink-0 flex-col gap-4 overflow-y-auto border-l border-border bg-card p-4"
    >
      <div className="flex items-start gap-2">
        <h2 className="min-w-0 flex-1 truncate font-semibold">{title}</h2>
        <Button size="icon-sm" variant="ghost" aria-label="Close details" onClick={onClose}>
          <XIcon aria-hidden="true" />
        </Button>
      </div>
      <DetailsBody {...props} />
    </aside>
  );
}
