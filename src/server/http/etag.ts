import { createHash } from "node:crypto";
import type { Context } from "hono";

/**
 * A validator for what a polled JSON answer says, so a console that asks every few seconds gets
 * a body-less 304 while nothing changed. `stable` is the answer without its members that change
 * on every read (a `generatedAt`), so they do not defeat the comparison.
 */
export function answerEtag(stable: unknown): string {
  return `W/"${createHash("sha256").update(JSON.stringify(stable)).digest("base64url").slice(0, 32)}"`;
}

/**
 * Sets the validator and says whether the caller already holds this answer. `private, no-cache`
 * lets the browser keep it and revalidate each time, so `fetch` sees the cached 200 after a 304.
 */
export function isNotModified(c: Context, etag: string): boolean {
  c.header("ETag", etag);
  c.header("Cache-Control", "private, no-cache");
  const held = c.req.header("If-None-Match");
  if (!held) return false;
  return held.split(",").some((t) => {
    const tag = t.trim();
    return tag === "*" || tag === etag || `W/${tag}` === etag;
  });
}

/** The OpenAPI entry for the 304 of an operation that answers with `answerEtag`. */
export const notModifiedResponse = {
  304: { description: "Unchanged since the `ETag` sent in `If-None-Match`; no body" },
} as const;
