import { createHash } from "node:crypto";
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { json } from "./router";

/*
 * Answers made to be polled (the needs-attention summary, an open receipt): each carries a
 * validator over its JSON, and a caller that sends it back as `If-None-Match` while nothing
 * changed gets a body-less 304.
 */

export const etagHeader = z
  .string()
  .meta({ description: "The answer's validator, for `If-None-Match`" });

/** The request header of a polled operation, for its route's `request.headers`. */
export const ifNoneMatchHeaders = z.object({
  "if-none-match": z
    .string()
    .max(200)
    .optional()
    .meta({ description: "The `ETag` of the answer the caller holds" }),
});

/** The 200 with its `ETag` and the 304, for a polled operation's route. */
export function pollableResponses<T extends z.ZodType>(schema: T, description: string) {
  return {
    200: { ...json(schema, description), headers: z.object({ ETag: etagHeader }) },
    304: {
      description: "Unchanged since the `ETag` sent as `If-None-Match`; no body",
      headers: z.object({ ETag: etagHeader }),
    },
  };
}

/**
 * `value` as JSON with a strong validator over its text, or a 304 when the caller holds it.
 * `volatile` is a piece of that text which changes on every read without the answer changing
 * (a receipt's `generatedAt`): it is left out of the validator. `private, no-cache`: the browser
 * may keep the answer only to ask again, so a poll always reaches the service.
 */
export function pollableJson(c: Context, value: unknown, volatile?: string): Response {
  const body = JSON.stringify(value);
  const hashed = volatile ? body.replace(volatile, "") : body;
  const etag = `"${createHash("sha256").update(hashed).digest("base64url").slice(0, 27)}"`;
  c.header("ETag", etag);
  c.header("Cache-Control", "private, no-cache");
  if (holdsEtag(c, etag)) return c.body(null, 304);
  return c.body(body, 200, { "Content-Type": "application/json" });
}

/** Whether the request's `If-None-Match` names `etag` (the caller holds that answer). */
export const holdsEtag = (c: Context, etag: string) =>
  c.req
    .header("If-None-Match")
    ?.split(",")
    .some((t) => t.trim() === etag) ?? false;
