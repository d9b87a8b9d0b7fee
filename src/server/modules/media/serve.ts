import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import type { Context } from "hono";
import type { ProxyKind } from "@/contract/media-rules";
import { requestedRange } from "@/server/http/range";
import type { AppEnv } from "@/server/http/types";
import { ApiError } from "@/server/lib/api-error";
import { renditionStore } from "./rendition-store";
import type { RenditionRow } from "./renditions.repository";

/** What each kind's bytes are, for the signed address (row 15 answers them all as octet-stream). */
export const MEDIA_TYPES: Record<ProxyKind, string> = {
  proxy720: "video/mp4",
  waveform: "application/octet-stream",
  contact_sheet: "image/jpeg",
  page: "image/jpeg",
};

/** A validator keyed by content: the same bytes answer the same ETag whichever file holds them. */
const etagOf = (r: RenditionRow) =>
  `"${createHash("sha256").update(`${r.sha256}\n${r.kind}\n${r.page}\n${r.settings}`).digest("base64url").slice(0, 27)}"`;

/**
 * A ready rendition's bytes, from the disk or the bucket, with Range (206; 416 with `Content-Range: bytes *\/size` past the
 * end), If-Range on the ETag (a stale validator gets the whole body) and If-None-Match (304).
 */
export function renditionResponse(
  c: Context<AppEnv>,
  row: RenditionRow,
  o: { contentType: string; cacheControl: string },
): Response {
  const store = renditionStore(c.get("deps"));
  const size = row.size_bytes ?? store.sizeOf(row);
  const etag = etagOf(row);
  c.header("Accept-Ranges", "bytes");
  c.header("ETag", etag);
  c.header("Cache-Control", o.cacheControl);
  const held = c.req.header("If-None-Match");
  if (held?.split(",").some((t) => t.trim() === etag) && !c.req.header("Range"))
    return c.body(null, 304);
  const range = requestedRange(
    { range: c.req.header("Range"), ifRange: c.req.header("If-Range") },
    etag,
    size,
  );
  if (range === "unsatisfiable") {
    c.header("Content-Range", `bytes */${size}`);
    throw new ApiError(416, "validation_failed", `The range is outside the ${size} bytes`, {
      issues: [{ field: "Range", message: "unsatisfiable", code: "range_not_satisfiable" }],
    });
  }
  const stream = store.read(row, range ?? undefined);
  const body = Readable.toWeb(stream) as ReadableStream<Uint8Array>;
  const length = range ? range.end - range.start + 1 : size;
  const headers: Record<string, string> = {
    "Content-Type": o.contentType,
    "Content-Length": String(length),
  };
  if (range) headers["Content-Range"] = `bytes ${range.start}-${range.end}/${size}`;
  return c.body(body, range ? 206 : 200, headers);
}
