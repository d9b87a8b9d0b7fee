import { ArrowLeftIcon, ArrowRightIcon } from "lucide-react";
import { Button } from "@/web/components/ui/button";
import type { MediaSources } from "../hooks/use-media-sources";
import { useViewerCommands } from "../hooks/use-viewer-commands";
import { ProxyNotice } from "./proxy-notice";

/** One PDF page's image, or where its rendering is. */
export function PdfPage({
  sources,
  page,
  title,
}: {
  sources: MediaSources;
  page: number;
  title: string;
}) {
  const entry = sources.pages.find((p) => p.page === page) ?? null;
  if (entry?.status === "ready" && entry.url)
    return (
      <img
        src={entry.url}
        alt={`Page ${page + 1} of ${title}`}
        data-testid="pdf-page"
        data-page={page + 1}
        className="max-h-full max-w-full bg-white object-contain shadow-lg"
      />
    );
  return (
    <div className="p-6">
      {sources.status.isPending ? (
        <p className="text-sm text-white/85">Loading…</p>
      ) : (
        <ProxyNotice entry={entry} what={`Page ${page + 1}`} fallback="" />
      )}
    </div>
  );
}

/** Previous and next page, and where we are; the keys do the same. */
export function PageControls({
  page,
  pageCount,
  onPage,
}: {
  page: number;
  pageCount: number | null;
  onPage(page: number): void;
}) {
  const last = Math.max(0, (pageCount ?? 1) - 1);
  return (
    <div className="flex items-center justify-center gap-2 text-sm text-white">
      <Button
        size="icon-sm"
        variant="ghost"
        className="text-white hover:bg-white/15 hover:text-white"
        aria-label="Previous page"
        disabled={page <= 0}
        onClick={() => onPage(page - 1)}
      >
        <ArrowLeftIcon aria-hidden="true" />
      </Button>
      <output aria-live="polite" data-testid="page-number">
        Page {page + 1} of {pageCount ?? "…"}
      </output>
      <Button
        size="icon-sm"
        variant="ghost"
        className="text-white hover:bg-white/15 hover:text-white"
        aria-label="Next page"
        disabled={page >= last}
        onClick={() => onPage(page + 1)}
      >
        <ArrowRightIcon aria-hidden="true" />
      </Button>
    </div>
  );
}

/** The page a paging command leads to, within the document (pages past 50 have no image). */
export function pageAfter(command: string, page: number, pageCount: number | null) {
  const last = Math.min(50, Math.max(0, (pageCount ?? 1) - 1));
  if (command === "back" || command === "previousPage") return Math.max(0, page - 1);
  if (command === "forward" || command === "nextPage") return Math.min(last, page + 1);
  return null;
}

/** A PDF page by page, from its page images (rendered on demand). */
export function PdfView({
  sources,
  title,
  page,
  onPage,
}: {
  sources: MediaSources;
  title: string;
  page: number;
  onPage(page: number): void;
}) {
  useViewerCommands((c) => {
    const next = pageAfter(c, page, sources.pageCount);
    if (next === null) return false;
    onPage(next);
    return true;
  });
  return (
    <div className="flex min-h-0 flex-1 flex-col bg-neutral-900">
      <div className="flex min-h-0 flex-1 items-center justify-center overflow-auto p-2">
        <PdfPage sources={sources} page={page} title={title} />
      </div>
      <div className="p-2">
        <PageControls page={page} pageCount={sources.pageCount} onPage={onPage} />
      </div>
    </div>
  );
}
