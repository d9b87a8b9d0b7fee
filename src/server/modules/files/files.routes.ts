import { z } from "@hono/zod-openapi";
import { okSchema } from "@/contract/common";
import {
  createFolderBodySchema,
  deleteFilesBodySchema,
  fileListingSchema,
  fileVersionSchema,
  listFilesQuerySchema,
  manifestQuerySchema,
  manifestSchema,
  previewQuerySchema,
  renameFileBodySchema,
  restoreTrashResultSchema,
  searchFilesQuerySchema,
  searchResultsSchema,
  trashItemParams,
  trashItemSchema,
  versionParams,
  versionsQuerySchema,
} from "@/contract/files";
import { etagHeader } from "@/server/http/etag";
import { apiRoute, json, jsonBody, workspaceParams } from "@/server/http/router";

const tags = ["Files"];
const read = ["files:read"] as const;
const write = ["files:write"] as const;

export const listFilesRoute = apiRoute({
  operationId: "listFiles",
  method: "get",
  path: "/workspaces/{workspaceId}/files",
  tags,
  scopes: read,
  summary: "List a folder",
  description:
    "One page of a folder: folders first, then files, each by name (case-insensitive, numbers in numeric order). `total` is the exact number of entries. A deep page (large `skip`) costs about what the first page costs. `sort` and `order` are extensions. 404 for an unknown path; `validation_failed` when the path is a file.",
  request: { params: workspaceParams, query: listFilesQuerySchema },
  responses: { 200: json(fileListingSchema, "The folder page") },
});

export const renameFileRoute = apiRoute({
  operationId: "renameFile",
  method: "patch",
  path: "/workspaces/{workspaceId}/files",
  tags,
  scopes: write,
  summary: "Rename a file or folder",
  description:
    "Renames in place; a folder keeps its contents. A name with `/` or over 255 characters, or a name that already exists in the folder (`details.issues[0].code` = `conflict`), is `validation_failed`. The root cannot be renamed. Renaming to the current name succeeds without change.",
  request: { params: workspaceParams, body: jsonBody(renameFileBodySchema) },
  responses: { 200: json(okSchema, "Renamed") },
});

export const deleteFilesRoute = apiRoute({
  operationId: "deleteFiles",
  method: "delete",
  path: "/workspaces/{workspaceId}/files",
  tags,
  scopes: write,
  summary: "Delete files and folders (to the trash, or permanently)",
  description:
    "Up to 500 paths, all or nothing: when one path is unknown (404, `details.path` names it) nothing changes. A folder takes its whole subtree along as one trash item; a path inside another listed folder goes with that folder. `permanent: true` deletes at once and cannot be undone. The root cannot be deleted.",
  request: { params: workspaceParams, body: jsonBody(deleteFilesBodySchema) },
  responses: { 200: json(okSchema, "Deleted") },
});

export const searchFilesRoute = apiRoute({
  operationId: "searchFiles",
  method: "get",
  path: "/workspaces/{workspaceId}/files/search",
  tags,
  scopes: read,
  summary: "Search names in a folder and below",
  description:
    "Case-insensitive substring match over file and folder names under `path` (not the folder itself), through a trigram index. Ranked: exact names, then names starting with `q`, then names containing it; by name within each tier. Each item is a FileEntry plus `folder` and `match`. Text of one or two characters matches exact and prefix names through the name index and substrings within the first 50,000 entries of the folder.",
  request: { params: workspaceParams, query: searchFilesQuerySchema },
  responses: { 200: json(searchResultsSchema, "Matches, best first") },
});

export const manifestRoute = apiRoute({
  operationId: "getFolderManifest",
  method: "get",
  path: "/workspaces/{workspaceId}/files/manifest",
  tags,
  scopes: read,
  summary: "Manifest of every file in a folder, recursively",
  description:
    "Streamed as it is read. File paths are relative to `root`, in path order, with size, modification time and SHA-256. At most 100,000 files are listed; beyond that `truncated` is true. `fileCount`, `totalBytes` and `limit` are additional members.",
  request: { params: workspaceParams, query: manifestQuerySchema },
  responses: { 200: json(manifestSchema, "The manifest") },
});

export const createFolderRoute = apiRoute({
  operationId: "createFolder",
  method: "post",
  path: "/workspaces/{workspaceId}/files/folder",
  tags,
  scopes: write,
  summary: "Create a folder",
  description:
    "Creates the folder and any missing parents. An existing folder at the path also answers 201 (idempotent). A file at the path or on the way is `validation_failed`.",
  request: { params: workspaceParams, body: jsonBody(createFolderBodySchema) },
  responses: { 201: json(okSchema, "The folder exists") },
});

export const listTrashRoute = apiRoute({
  operationId: "listTrashItems",
  method: "get",
  path: "/workspaces/{workspaceId}/files/trash",
  tags,
  scopes: read,
  summary: "List the trash",
  description:
    "Every trashed item, most recently deleted first, with its original path and when it is purged automatically (`TRASH_RETENTION_DAYS` after deletion, 30 by default). A trashed folder is one item; `sizeBytes` counts every file in it.",
  request: { params: workspaceParams },
  responses: { 200: json(z.array(trashItemSchema), "Trash items") },
});

export const restoreTrashRoute = apiRoute({
  operationId: "restoreTrashItem",
  method: "post",
  path: "/workspaces/{workspaceId}/files/trash/{itemId}/restore",
  tags,
  scopes: write,
  summary: "Restore a trash item",
  description:
    'Puts the item (with its subtree) back at its original path, recreating missing parent folders. When that path is taken, it is restored beside it as "name (restored)" (then "name (restored 2)", ...), before the extension of a file, shortened to fit 255 characters. The answer says where it is now (`path`) and whether that is another name (`renamed`): extension members beside the spec\'s `ok`. A file standing where a parent folder must be: validation_failed. 404 for an unknown id.',
  request: { params: workspaceParams.extend(trashItemParams.shape) },
  responses: { 200: json(restoreTrashResultSchema, "Restored") },
});

export const purgeTrashRoute = apiRoute({
  operationId: "purgeTrashItem",
  method: "delete",
  path: "/workspaces/{workspaceId}/files/trash/{itemId}",
  tags,
  scopes: write,
  summary: "Purge a trash item now",
  description:
    "Deletes the item, its subtree and their kept versions for good. 404 for an unknown id.",
  request: { params: workspaceParams.extend(trashItemParams.shape) },
  responses: { 200: json(okSchema, "Purged") },
});

export const listVersionsRoute = apiRoute({
  operationId: "listFileVersions",
  method: "get",
  path: "/workspaces/{workspaceId}/files/versions",
  tags,
  scopes: read,
  summary: "List kept versions of a file",
  description:
    "Earlier contents of the file, newest first; the live content is not in the list. A version is kept whenever the content is replaced; the newest `VERSIONS_KEEP` (20 by default) are kept. 404 for an unknown path; `validation_failed` for a folder.",
  request: { params: workspaceParams, query: versionsQuerySchema },
  responses: { 200: json(z.array(fileVersionSchema), "Kept versions") },
});

export const restoreVersionRoute = apiRoute({
  operationId: "restoreFileVersion",
  method: "post",
  path: "/workspaces/{workspaceId}/files/versions/{versionId}/restore",
  tags,
  scopes: write,
  summary: "Make a kept version live",
  description:
    "The version's content becomes the live content and the replaced content becomes a kept version, so nothing is lost. 404 for an unknown version id or a version of a trashed file.",
  request: { params: workspaceParams.extend(versionParams.shape) },
  responses: { 200: json(okSchema, "Restored") },
});

const thumbnailCacheHeader = z.string().meta({
  description:
    "`private, max-age=31536000, immutable` when `v` matches the content, else `private, max-age=60`",
});

export const previewRoute = apiRoute({
  operationId: "getFilePreview",
  method: "get",
  path: "/workspaces/{workspaceId}/files/preview",
  tags,
  scopes: read,
  summary: "Thumbnail of an image, video, PDF or audio file",
  description:
    "A JPEG at most 320 pixels on its longer side: of a PNG, JPEG, WebP, GIF or TIFF image up to 8192 × 8192 pixels, a video's frame a tenth of the way in, a PDF's first page, or an audio file's waveform (a light wave on a dark ground, 320 × 180). Rendered once per content (its SHA-256 and the render settings) and kept, so a copy, move, rename or restored version renders nothing again; at most two render at once, and a video, PDF or audio file that takes over 15 s to draw has none. `version` asks for a kept version of the file instead. The answer carries an `ETag` (the same for the same content, whatever its path) and answers `If-None-Match` with 304. With `v` (the start of the content's SHA-256, as the listing gives it) matching the content, it may be kept for a year (`Cache-Control: private, max-age=31536000, immutable`): the address then names the content, and a changed file is asked for by another `v`. Otherwise it is kept 60 seconds. A folder, another type, protected content, a larger image and a file that cannot be decoded are `validation_failed` (`no_preview`); 404 for an unknown path or a version that is not one of the file's.",
  request: { params: workspaceParams, query: previewQuerySchema },
  responses: {
    200: {
      description: "The thumbnail",
      headers: z.object({ ETag: etagHeader, "Cache-Control": thumbnailCacheHeader }),
      content: { "image/jpeg": { schema: z.string().meta({ format: "binary" }) } },
    },
    304: {
      description: "The thumbnail the caller holds (`If-None-Match`) is current; no body",
      headers: z.object({ ETag: etagHeader }),
    },
  },
});
