import { z } from "zod";
import {
  count,
  dateTime,
  idSchema,
  nameSchema,
  okSchema,
  optionalPathSchema,
  queryInteger,
  requiredPathSchema,
} from "./common";
import { fileSortFields, isWellFormedText, normalizeName, sortOrders } from "./rules";

export { type FileSortField, fileSortFields, type SortOrder, sortOrders } from "./rules";

/**
 * One entry of a folder (the spec leaves FileEntry open; see docs/api-decisions.md).
 * Folders carry `childCount`, files carry `sizeBytes`, `mimeType`, `sha256` and `versionCount`.
 */
export const fileEntrySchema = z
  .object({
    name: z.string(),
    path: z.string().meta({ description: "Workspace-relative path, no leading /" }),
    type: z.enum(["file", "folder"]),
    sizeBytes: count().nullable().meta({ description: "null for folders" }),
    mimeType: z.string().nullable(),
    sha256: z
      .string()
      .nullable()
      .meta({ description: "Hex SHA-256 of the live content; null for folders" }),
    childCount: count().nullable().meta({ description: "Direct children; null for files" }),
    versionCount: count().meta({ description: "Kept versions (0 for folders)" }),
    createdAt: dateTime(),
    modifiedAt: dateTime(),
  })
  .meta({ id: "FileEntry" });
export type FileEntry = z.infer<typeof fileEntrySchema>;

export const fileAccessSchema = z
  .enum(["read", "write"])
  .meta({ description: "What the calling key may do in this folder" });

export const fileListingSchema = z
  .object({
    path: z.string(),
    access: fileAccessSchema,
    items: z.array(fileEntrySchema),
    total: count().meta({ description: "Exact number of entries in the folder" }),
    sort: z.enum(fileSortFields).optional().meta({
      description:
        "Extension (x-consign-extension): the order the items are in. A console that asked for a sort and finds this member missing knows the service ignored it (name order).",
      "x-consign-extension": true,
    }),
    order: z.enum(sortOrders).optional().meta({
      description: "Extension (x-consign-extension): the direction of `sort`.",
      "x-consign-extension": true,
    }),
  })
  .meta({ id: "FileListing" });
export type FileListing = z.infer<typeof fileListingSchema>;

export const listFilesQuerySchema = z.object({
  path: optionalPathSchema,
  skip: queryInteger(0).default(0),
  count: queryInteger(1, 1000).default(200),
  sort: z.enum(fileSortFields).default("name").meta({
    description:
      "Extension (x-consign-extension). Folders always come first; within folders and within files the entries are ordered by this key, then by name. A service without it ignores the parameter and answers in name order.",
    "x-consign-extension": true,
  }),
  order: z.enum(sortOrders).default("asc").meta({
    description: "Extension (x-consign-extension): direction of `sort`.",
    "x-consign-extension": true,
  }),
});
export type ListFilesQuery = z.input<typeof listFilesQuerySchema>;

export const createFolderBodySchema = z.object({ path: requiredPathSchema });
export type CreateFolderBody = z.infer<typeof createFolderBodySchema>;

export const renameFileBodySchema = z.object({ path: requiredPathSchema, newName: nameSchema });
export type RenameFileBody = z.infer<typeof renameFileBodySchema>;

export const deleteFilesBodySchema = z.object({
  paths: z.array(requiredPathSchema).min(1).max(500),
  permanent: z
    .boolean()
    .default(false)
    .meta({ description: "false moves the entries to the trash" }),
});
export type DeleteFilesBody = z.input<typeof deleteFilesBodySchema>;

export const searchFilesQuerySchema = z.object({
  q: z
    .string()
    .min(1)
    .max(200)
    // A NUL would cut the FTS query short; no name holds a control character, so none can match.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
    .refine((q) => !/[\u0000-\u001f\u007f-\u009f]/.test(q), "Must not contain control characters")
    .refine(isWellFormedText, "Must be well-formed Unicode (no lone surrogate)")
    .meta({ pattern: String.raw`^[^\u0000-\u001f\u007f-\u009f\uD800-\uDFFF]+$` })
    // Names are stored in NFC: text typed in another form must still find them.
    .transform(normalizeName),
  path: optionalPathSchema,
  limit: queryInteger(1, 500).default(100),
});
export type SearchFilesQuery = z.input<typeof searchFilesQuerySchema>;

export const searchMatchSchema = z
  .enum(["exact", "prefix", "substring"])
  .meta({ description: "How the name matched; results come in this order" });

/** A FileEntry plus where it sits and how it matched (additive: still a FileEntry). */
export const searchResultSchema = fileEntrySchema
  .extend({
    folder: z
      .string()
      .meta({ description: "Path of the folder holding the entry (empty for the root)" }),
    match: searchMatchSchema,
  })
  .meta({ id: "FileSearchResult" });
export type SearchResult = z.infer<typeof searchResultSchema>;

export const searchResultsSchema = z
  .object({ items: z.array(searchResultSchema) })
  .meta({ id: "FileSearchResults" });
export type SearchResults = z.infer<typeof searchResultsSchema>;

export const manifestQuerySchema = z.object({ path: optionalPathSchema });

export const manifestFileSchema = z.object({
  path: z.string().meta({ description: "Relative to `root`" }),
  size: count(),
  modifiedAt: dateTime().nullable(),
  sha256: z.string().nullable().meta({ description: "Additional: hex SHA-256 of the content" }),
});

export const manifestSchema = z
  .looseObject({
    root: z.string(),
    files: z.array(manifestFileSchema),
    truncated: z
      .boolean()
      .meta({ description: "true when the folder holds more files than the manifest limit" }),
    fileCount: count().meta({ description: "Additional: files listed" }),
    totalBytes: count().meta({ description: "Additional: sum of the listed sizes" }),
    limit: count().meta({ description: "Additional: the most files a manifest lists" }),
  })
  .meta({ id: "FolderManifest" });
export type Manifest = z.infer<typeof manifestSchema>;

export const trashItemSchema = z
  .object({
    id: z.string(),
    path: z.string().meta({ description: "Where the item was when it was deleted" }),
    name: z.string(),
    sizeBytes: count().nullable().meta({ description: "A folder counts every file it held" }),
    deletedAt: dateTime(),
    purgeAt: dateTime().meta({ description: "When the item is purged automatically" }),
    type: z.enum(["file", "folder"]).meta({ description: "Additional" }),
  })
  .meta({ id: "TrashItem" });
export type TrashItem = z.infer<typeof trashItemSchema>;

export const trashItemParams = z.object({
  itemId: z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { name: "itemId", in: "path" } }),
});

/** The spec's Ok, plus where the item came back (extension members, additive). */
export const restoreTrashResultSchema = okSchema
  .extend({
    path: z.string().meta({
      description:
        "Extension (x-consign-extension): where the item is now, its original path unless that was taken",
      "x-consign-extension": true,
    }),
    renamed: z.boolean().meta({
      description:
        'Extension (x-consign-extension): true when the original path was taken and the item came back as "name (restored)"',
      "x-consign-extension": true,
    }),
  })
  .meta({ id: "TrashRestoreResult" });
export type RestoreTrashResult = z.infer<typeof restoreTrashResultSchema>;

export const fileVersionSchema = z
  .object({
    id: z.string().meta({ description: "Matches ^[a-z0-9]{10,40}$" }),
    path: z.string(),
    sizeBytes: count().nullable(),
    createdAt: dateTime().meta({ description: "When this content was written" }),
    sha256: z.string().meta({ description: "Additional" }),
  })
  .meta({ id: "FileVersion" });
export type FileVersion = z.infer<typeof fileVersionSchema>;

export const versionsQuerySchema = z.object({ path: requiredPathSchema });

export const versionParams = z.object({
  versionId: z
    .string()
    .min(1)
    .max(64)
    .meta({ param: { name: "versionId", in: "path" } }),
});

export const previewQuerySchema = z.object({
  path: requiredPathSchema,
  version: idSchema.optional().meta({
    description:
      "Additional: a kept version of the file at `path` (its id) instead of the live content",
  }),
  v: z
    .string()
    .regex(/^[0-9a-f]{8,64}$/)
    .optional()
    .meta({
      description:
        "Additional: the start of the content's SHA-256 (8 to 64 hex digits) the caller expects. When it matches, the answer may be kept for a year (`immutable`): the address names the content",
    }),
});
