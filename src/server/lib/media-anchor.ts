import type { MediaAnchor } from "@/contract/media";
import { validationFailed } from "./api-error";

/*
 * The rules of a time-coded note's anchor (docs/api-decisions.md, Media), for share comments and
 * upload review notes alike: the module checks that the path is one of its files, this checks
 * the rest against what is known of that file.
 */

/** What is known of the anchored file; null members are not known (not probed, not rendered). */
export interface AnchoredFile {
  mime: string | null;
  durationMs: number | null;
  pageCount: number | null;
}

const timed = (mime: string) => mime.startsWith("video/") || mime.startsWith("audio/");

/**
 * Exactly one of `timeMs` and `page` (`time_or_page`); a time only in audio or video and a page
 * only in a PDF when the type is known (`wrong_kind`); neither past the file's end when that is
 * known (`past_end`).
 */
export function checkAnchor(field: string, anchor: MediaAnchor, file: AnchoredFile) {
  const { timeMs, page } = anchor;
  if ((timeMs === null) === (page === null))
    throw validationFailed(
      field,
      "An anchor has a time (timeMs) or a page, not both nor neither",
      "time_or_page",
    );
  if (timeMs !== null) {
    if (file.mime && !timed(file.mime))
      throw validationFailed(
        `${field}.timeMs`,
        `"${anchor.path}" is not audio or video: it has no time`,
        "wrong_kind",
      );
    if (file.durationMs !== null && timeMs > file.durationMs)
      throw validationFailed(
        `${field}.timeMs`,
        `"${anchor.path}" lasts ${file.durationMs} ms`,
        "past_end",
      );
  }
  if (page !== null) {
    if (file.mime && file.mime !== "application/pdf")
      throw validationFailed(
        `${field}.page`,
        `"${anchor.path}" is not a PDF: it has no pages`,
        "wrong_kind",
      );
    if (file.pageCount !== null && page >= file.pageCount)
      throw validationFailed(
        `${field}.page`,
        `"${anchor.path}" has ${file.pageCount} pages (from 0)`,
        "past_end",
      );
  }
}

/** What the media probe (the renditions' first step) found of a content, as an anchor needs it. */
export const probedFacts = (
  probe: { duration_ms: number | null; page_count: number | null } | undefined,
) => ({ durationMs: probe?.duration_ms ?? null, pageCount: probe?.page_count ?? null });

/** An anchor's three columns, as both tables keep them. */
export interface AnchorColumns {
  anchor_path: string | null;
  anchor_time_ms: number | null;
  anchor_page: number | null;
}

export const anchorColumns = (
  a: MediaAnchor | null | undefined,
  path = a?.path,
): AnchorColumns => ({
  anchor_path: a ? (path ?? null) : null,
  anchor_time_ms: a?.timeMs ?? null,
  anchor_page: a?.page ?? null,
});

export const anchorOf = (row: AnchorColumns, path = row.anchor_path): MediaAnchor | null =>
  row.anchor_path === null || path === null
    ? null
    : { path, timeMs: row.anchor_time_ms, page: row.anchor_page };
