import { z } from "zod";
import { dateTime, nameSchema, optionalPathSchema, requiredPathSchema } from "./common";

/**
 * One entry of a folder (the spec leaves FileEntry open; see docs/api-decisions.md).
 * Folders carry `childCount`, files carry `sizeBytes`, `mimeType`, `sha256` and `versionCount`.
 */
export const fileEntrySchema = z
  .object({
    name: z.string(),
    path: z.string().meta({ description: "Workspace-relative path, no leading /" }),
    type: z.enum(["file", "folder"]),
    sizeBytes: z.number().int().nullable().meta({ description: "null for folders" }),
    mimeType: z.string().nullable(),
    sha256: z.string().nullable().meta({ description: "Hex SHA-256 of the live content; null for folders" }),
    childCount: z.number().int().nullable().meta({ description: "Direct children; null for files" }),
    versionCount: z.number().int().meta({ description: "Kept versions (0 for folders)" }),
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
    total: z.number().int().meta({ description: "Exact number of entries in the folder" }),
  })
  .meta({ id: "FileListing" });
export type FileListing = z.infer<typeof fileListingSchema>;

export const listFilesQuerySchema = z.object({
  path: optionalPathSchema,
  skip: z.coerce.number().int().min(0).default(0),
  count: z.coerce.number().int().min(1).max(1000).default(200),
});
export type ListFilesQuery = z.input<typeof listFilesQuerySchema>;

export const createFolderBodySchema = z.object({ path: requiredPathSchema });
export type CreateFolderBody = z.infer<typeof createFolderBodySchema>;

export const renameFileBodySchema = z.object({ path: requiredPathSchema, newName: nameSchema });
export type RenameFileBody = z.infer<typeof renameFileBodySchema>;
