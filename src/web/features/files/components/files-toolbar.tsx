import { KeyboardIcon, ListChecksIcon, PanelRightIcon } from "lucide-react";
import type { RefObject } from "react";
import { formatCount } from "@/browser/format";
import type { FileListing, SearchResult } from "@/contract/files";
import { Button } from "@/web/components/ui/button";
import type { DropOnto } from "@/web/features/files/hooks/use-drag-move";
import { filesAriaKeys } from "@/web/features/files/keymap";
import { UploadButtons } from "@/web/features/transfers";
import { Breadcrumbs } from "./breadcrumbs";
import { NewFolderButton } from "./new-folder-button";
import { SearchBox } from "./search-box";
import { ViewToggle } from "./view-toggle";

/**
 * Where the folder is and what can be done in it. It wraps on narrow screens: the breadcrumbs
 * on a line of their own, the search box the full width, the buttons below.
 */
export function FilesToolbar({
  workspaceId,
  folder,
  listing,
  searchRef,
  onOpenResult,
  detailsOpen,
  onToggleDetails,
  onShowManifest,
  onShowShortcuts,
  onDropOnto,
}: {
  workspaceId: string;
  folder: string;
  listing: FileListing | undefined;
  searchRef: RefObject<HTMLInputElement | null>;
  onOpenResult(result: SearchResult): void;
  detailsOpen: boolean;
  onToggleDetails(): void;
  onShowManifest(): void;
  onShowShortcuts(): void;
  /** Items dropped on a breadcrumb (with write access). */
  onDropOnto?: DropOnto;
}) {
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-border px-4 py-3">
      <h1 className="sr-only">Files</h1>
      <div className="min-w-0 flex-1 basis-48">
        <Breadcrumbs path={folder} onDropOnto={onDropOnto} />
        {listing && (
          <p className="mt-0.5 text-xs text-muted-foreground" aria-live="polite">
            {formatCount(listing.total)} item{listing.total === 1 ? "" : "s"}
            {listing.access === "read" && " · read-only"}
          </p>
        )}
      </div>
      <SearchBox
        workspaceId={workspaceId}
        folder={folder}
        inputRef={searchRef}
        onOpenResult={onOpenResult}
      />
      <div className="flex flex-wrap items-center gap-2">
        <ViewToggle />
        <Button
          variant="outline"
          size="icon"
          aria-label="Details panel"
          title="Details panel"
          aria-pressed={detailsOpen}
          onClick={onToggleDetails}
        >
          <PanelRightIcon aria-hidden="true" />
        </Button>
        <Button
          variant="outline"
          size="icon"
          aria-label="Manifest"
          title="Manifest: every file below this folder, as CSV or JSON"
          onClick={onShowManifest}
        >
          <ListChecksIcon aria-hidden="true" />
        </Button>
        <Button
          variant="outline"
          size="icon"
          aria-label="Keyboard shortcuts"
          title="Keyboard shortcuts (?)"
          aria-keyshortcuts={filesAriaKeys("showShortcuts")}
          onClick={onShowShortcuts}
        >
          <KeyboardIcon aria-hidden="true" />
        </Button>
        {listing?.access === "write" && (
          <>
            <UploadButtons folder={folder} />
            <NewFolderButton folder={folder} />
          </>
        )}
      </div>
    </div>
  );
}
