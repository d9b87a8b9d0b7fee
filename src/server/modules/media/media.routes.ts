import { z } from "@hono/zod-openapi";
import {
  listRendersQuerySchema,
  mediaTokenParamsSchema,
  proxyQuerySchema,
  proxyStatusQuerySchema,
  proxyStatusSchema,
  renderJobListSchema,
  renderProxiesBodySchema,
  renderProxiesResultSchema,
} from "@/contract/media";
import { WAVEFORM_MAX_PAIRS } from "@/contract/media-rules";
import {
  apiRoute,
  errorResponse,
  json,
  jsonBody,
  publicRoute,
  workspaceParams,
} from "@/server/http/router";

const tags = ["Files"];
const read = ["files:read"] as const;
const write = ["files:write"] as const;
const binary = { schema: z.string().meta({ format: "binary" }) };
const ranged = {
  range: z.string().max(200).optional().meta({ description: "One range, `bytes=start-end`" }),
};
const rangeResponses = {
  206: {
    description: "The range asked for, with `Content-Range`",
    content: { "application/octet-stream": binary },
  },
  416: errorResponse(
    "`validation_failed` (issue `range_not_satisfiable`): the range starts past the end; `Content-Range: bytes */size`",
  ),
};

const kinds = `What each kind's bytes are: \`proxy720\` an MP4 (H.264 High, AAC stereo, index at the front, at most 720 lines at the source's frame rate, never upscaled); \`waveform\` the BBC audiowaveform binary format, version 1, 8-bit (a 20-byte header of little-endian int32: version 1, flags 1, sample rate, samples per pair, pair count; then that many signed-byte min/max pairs of a mono mix, at most ${WAVEFORM_MAX_PAIRS}); \`contact_sheet\` one JPEG of tiles 160 pixels wide, ten to a row, one a second or further apart for at most 100 (the status entry's \`layout\` says where each sits in time; each is the key frame at or before its time); \`page\` a PDF page (\`page\`, 0 to 50) as a JPEG 1600 pixels wide.`;

export const getProxyStatusRoute = apiRoute({
  operationId: "getProxyStatus",
  method: "get",
  path: "/workspaces/{workspaceId}/files/proxies",
  tags,
  scopes: read,
  summary: "Proxy status of a file or a kept version",
  description: `The media kind (by ffprobe once probed, else by type), frame rate, duration, and each proxy the content gets: video \`proxy720\`, \`waveform\` (when it has sound) and \`contact_sheet\`; audio \`waveform\`; PDF \`page\` 0 to 50; images none (their thumbnail is \`getFilePreview\`). Status \`pending\` (not asked for: PDFs render on request), \`queued\`, \`rendering\` (with \`progress\`), \`ready\` (with \`sizeBytes\`, a contact sheet's \`layout\`, and \`url\`, a signed address valid until \`urlExpiresAt\` that needs no key), \`failed\` (\`error\` is ffmpeg's or poppler's reason). Renditions are kept by content: a copy, move or version restore shows the same ones. Content-protected files list none (\`protected\`). \`version\` reads a kept version instead of \`path\`. ${kinds}`,
  request: { params: workspaceParams, query: proxyStatusQuerySchema },
  responses: { 200: json(proxyStatusSchema, "The proxy status") },
});

export const renderProxiesRoute = apiRoute({
  operationId: "renderProxies",
  method: "post",
  path: "/workspaces/{workspaceId}/files/proxies",
  tags,
  scopes: write,
  summary: "Queue the proxies of files or kept versions",
  description:
    "Queues every proxy the content lacks, and failed ones again; video and audio are queued when they land already, PDFs render when asked here. `queued` counts the renditions newly queued (0 when all exist). Content-protected files queue nothing. An unknown path or version: 404; a folder: `not_a_file`.",
  request: { params: workspaceParams, body: jsonBody(renderProxiesBodySchema) },
  responses: { 200: json(renderProxiesResultSchema, "How many were queued") },
});

export const getProxyRoute = apiRoute({
  operationId: "getProxy",
  method: "get",
  path: "/workspaces/{workspaceId}/files/proxy",
  tags,
  scopes: read,
  summary: "A proxy's bytes",
  description: `The ready proxy of a file (or of a kept version, \`version\`) as \`application/octet-stream\`, with Range (206; 416 past the end), \`If-Range\` and an \`ETag\` keyed by content (\`If-None-Match\`: 304). A proxy not ready: 404 (\`details.reason\` \`not_ready\`, with its \`status\`); a kind the file does not get: \`validation_failed\` (\`no_proxy\`); protected content: \`content_protected\`. ${kinds}`,
  request: { params: workspaceParams, query: proxyQuerySchema, headers: z.object(ranged) },
  responses: {
    200: { description: "The proxy", content: { "application/octet-stream": binary } },
    ...rangeResponses,
  },
});

export const listRendersRoute = apiRoute({
  operationId: "listRenders",
  method: "get",
  path: "/workspaces/{workspaceId}/files/renders",
  tags,
  scopes: read,
  extension: true,
  summary: "Recent and running media renders",
  description:
    "The job centre's list of renders asked for in this workspace, newest change first, at most `limit` (`active`: only queued and rendering): the file it was first asked for, kind, status, progress, ffmpeg's or poppler's reason of a failure, and times.",
  request: { params: workspaceParams, query: listRendersQuerySchema },
  responses: { 200: json(renderJobListSchema, "The renders") },
});

export const getMediaRoute = publicRoute(["Media"], {
  operationId: "getSignedMedia",
  method: "get",
  path: "/public/media/{token}",
  summary: "A rendition's bytes by its signed address",
  description: `The \`url\` of a ready proxy status entry: no key, so \`<video src>\` and \`<img src>\` work. The token signs the rendition and an expiry 2 to 3 hours away (on the hour); a token tampered with, expired or of a rendition gone: 404 (\`details.reason\` \`unknown_media\`). Range, \`If-Range\` and the \`ETag\` as \`getProxy\`; the type is the kind's (\`video/mp4\`, \`image/jpeg\`, the waveform \`application/octet-stream\`), cached privately until the expiry. ${kinds}`,
  request: { params: mediaTokenParamsSchema, headers: z.object(ranged) },
  responses: {
    200: {
      description: "The rendition",
      content: { "video/mp4": binary, "image/jpeg": binary, "application/octet-stream": binary },
    },
    ...rangeResponses,
  },
});
