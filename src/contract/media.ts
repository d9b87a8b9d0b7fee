import { z } from "zod";
import {
  count,
  dateTime,
  idSchema,
  optionalPathSchema,
  queryBoolean,
  queryInteger,
  requiredPathSchema,
} from "./common";
import {
  MAX_PROXY_PAGE,
  MAX_PROXY_RENDER_ITEMS,
  mediaKinds,
  proxyKinds,
  proxyStatuses,
} from "./media-rules";

export {
  MAX_PROXY_PAGE,
  MAX_PROXY_RENDER_ITEMS,
  type MediaKind,
  mediaKinds,
  type ProxyKind,
  type ProxyStatusValue,
  proxyKinds,
  proxyStatuses,
} from "./media-rules";

const versionId = idSchema.meta({ description: "A kept version's id (`^[a-z0-9]{10,40}$`)" });

/**
 * Where each tile of a contact sheet sits: tiles are laid out left to right, top to bottom,
 * `columns` to a row, each `tileWidth` × `tileHeight` pixels; tile `i` shows the frame at
 * `i * intervalMs` from the start.
 */
export const contactSheetLayoutSchema = z
  .object({
    columns: count(),
    rows: count(),
    tileWidth: count(),
    tileHeight: count(),
    tileCount: count(),
    intervalMs: count(),
  })
  .meta({ id: "ContactSheetLayout" });
export type ContactSheetLayout = z.infer<typeof contactSheetLayoutSchema>;

export const proxyEntrySchema = z
  .object({
    kind: z.enum(proxyKinds),
    page: count().meta({ description: "PDF page (0-based) for `page`; 0 for other kinds" }),
    status: z.enum(proxyStatuses).meta({
      description:
        "`pending`: not asked for yet (images and PDFs render on demand); `queued`; `rendering`; `ready`; `failed` (see `error`)",
    }),
    width: count().nullable(),
    height: count().nullable(),
    durationMs: count().nullable(),
    error: z.string().nullable(),
    // Extensions.
    sizeBytes: count()
      .nullable()
      .meta({ description: "Additional: bytes of the rendition once ready" }),
    progress: z
      .number()
      .min(0)
      .max(1)
      .nullable()
      .meta({ description: "Additional: 0 to 1 while rendering; null otherwise" }),
    layout: contactSheetLayoutSchema.nullable().meta({
      description: "Additional: the tile layout of a ready `contact_sheet`; null otherwise",
    }),
    url: z.string().nullable().meta({
      description:
        "Additional: a signed address of the ready rendition's bytes that needs no credential (for `<video src>`), valid until `urlExpiresAt`; null until ready",
    }),
    urlExpiresAt: dateTime().nullable().meta({ description: "Additional" }),
  })
  .meta({ id: "ProxyEntry" });
export type ProxyEntry = z.infer<typeof proxyEntrySchema>;

export const proxyStatusSchema = z
  .object({
    media: z.enum(mediaKinds).nullable(),
    fps: z.number().nullable().meta({ description: "Frame rate" }),
    durationMs: count().nullable(),
    proxies: z.array(proxyEntrySchema),
    // Extensions.
    sha256: z
      .string()
      .nullable()
      .meta({ description: "Additional: the content the renditions are of" }),
    pageCount: count()
      .nullable()
      .meta({ description: "Additional: a PDF's page count (pages past 50 have no proxy)" }),
    protected: z.boolean().optional().meta({
      description:
        "Additional: content-protected (encrypted at rest; only an engine with the password reads it), so it has no proxies",
    }),
  })
  .meta({ id: "ProxyStatus" });
export type ProxyStatus = z.infer<typeof proxyStatusSchema>;

export const proxyStatusQuerySchema = z.object({
  path: optionalPathSchema,
  version: versionId.optional(),
});

export const renderProxiesBodySchema = z
  .object({
    paths: z.array(requiredPathSchema).max(MAX_PROXY_RENDER_ITEMS).optional(),
    versions: z.array(versionId).max(MAX_PROXY_RENDER_ITEMS).optional(),
  })
  .meta({ id: "RenderProxiesRequest" });
export type RenderProxiesBody = z.infer<typeof renderProxiesBodySchema>;

export const renderProxiesResultSchema = z
  .object({ queued: count().meta({ description: "Renditions newly queued" }) })
  .meta({ id: "RenderProxiesResult" });

export const proxyQuerySchema = z.object({
  path: optionalPathSchema,
  kind: z.enum(proxyKinds),
  page: queryInteger(0, MAX_PROXY_PAGE).default(0),
  version: versionId.optional(),
});

export const listRendersQuerySchema = z.object({
  active: queryBoolean.optional().meta({ description: "Only queued and rendering ones" }),
  limit: queryInteger(1, 200).default(50),
});

export const renderJobSchema = z
  .object({
    id: z.string(),
    sha256: z.string().meta({ description: "The content rendered" }),
    path: z
      .string()
      .nullable()
      .meta({ description: "The file it was first asked for (it may have moved since)" }),
    kind: z.enum(proxyKinds),
    page: count(),
    status: z.enum(proxyStatuses),
    progress: z.number().min(0).max(1).nullable(),
    error: z.string().nullable(),
    sizeBytes: count().nullable(),
    createdAt: dateTime(),
    startedAt: dateTime().nullable(),
    finishedAt: dateTime().nullable(),
  })
  .meta({ id: "RenderJob" });
export type RenderJob = z.infer<typeof renderJobSchema>;

export const renderJobListSchema = z
  .object({ items: z.array(renderJobSchema) })
  .meta({ id: "RenderJobList" });

/**
 * Where in a file a note points: a time in audio or video, or a PDF page (0-based). Share
 * comments and review notes carry one (time-coded notes); the viewer shows them as markers.
 */
export const mediaAnchorSchema = z
  .object({
    path: z
      .string()
      .min(1)
      .max(4096)
      .meta({ description: "The file, as the share or upload lists it" }),
    timeMs: count().nullable(),
    page: z.int().min(0).max(MAX_PROXY_PAGE).nullable(),
  })
  .meta({ id: "MediaAnchor" });
export type MediaAnchor = z.infer<typeof mediaAnchorSchema>;

/** A signed media address's token (`GET /v1/public/media/{token}`): opaque to clients. */
export const mediaTokenParamsSchema = z.object({
  token: z
    .string()
    .min(1)
    .max(200)
    .meta({ param: { name: "token", in: "path" }, description: "From a ready entry's `url`" }),
});
