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
  BULK_EXCEPT_MAX,
  BULK_IDS_MAX,
  BULK_PATHS_MAX,
  OPERATION_ITEMS_MAX,
  OPERATIONS_LIST_DEFAULT,
  OPERATIONS_LIST_MAX,
  RENAME_PATHS_MAX,
} from "./rules";

export {
  BULK_EXCEPT_MAX,
  BULK_IDS_MAX,
  BULK_PATHS_MAX,
  OPERATION_ITEMS_MAX,
  OPERATIONS_LIST_DEFAULT,
  OPERATIONS_LIST_MAX,
  RENAME_PATHS_MAX,
};

const jobStatusSchema = z.enum(["queued", "running", "completed", "failed", "cancelled"]);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/* ---------------------------------------------------------------- move and copy (rows 16-18) */

/** What to do with an item whose destination is taken (extension; the spec has `overwrite`). */
export const conflictChoiceSchema = z.enum(["overwrite", "skip", "keepBoth"]);
export type ConflictChoice = z.infer<typeof conflictChoiceSchema>;

export const createOperationBodySchema = z
  .object({
    kind: z.enum(["move", "copy"]),
    paths: z.array(requiredPathSchema).min(1).max(OPERATION_ITEMS_MAX),
    destination: optionalPathSchema.meta({ description: "The folder the items go into" }),
    overwrite: z.boolean().default(false),
    expandSequences: z.boolean().default(true),
    onConflict: conflictChoiceSchema.optional().meta({
      description:
        "Extension: what to do with every conflicting item (overrides `overwrite`); without it and without `overwrite`, a conflict refuses the job",
    }),
    resolutions: z.record(z.string(), conflictChoiceSchema).optional().meta({
      description:
        "Extension: a choice per conflicting source path, taking precedence over `onConflict`",
    }),
  })
  .meta({ id: "CreateOperationBody" });
export type CreateOperationBody = z.input<typeof createOperationBodySchema>;

export const operationItemSchema = z.looseObject({
  path: z.string(),
  type: z.enum(["file", "folder"]),
  bytes: count(),
});

/** A move or copy job (spec: Move/copy job); additional members may appear. */
export const operationSchema = z
  .looseObject({
    id: z.string(),
    kind: z.enum(["move", "copy"]),
    status: jobStatusSchema,
    destination: z.string(),
    overwrite: z.boolean(),
    items: z.array(operationItemSchema),
    filesTotal: count(),
    filesDone: count(),
    bytesTotal: count(),
    bytesDone: count(),
    error: z.string().nullable(),
    createdAt: dateTime(),
    startedAt: dateTime().nullable(),
    finishedAt: dateTime().nullable(),
  })
  .meta({ id: "MoveCopyJob" });
export type Operation = z.infer<typeof operationSchema>;

export const listOperationsQuerySchema = z.object({
  active: queryBoolean.optional(),
  limit: queryInteger(1, OPERATIONS_LIST_MAX).default(OPERATIONS_LIST_DEFAULT),
});
export type ListOperationsQuery = z.input<typeof listOperationsQuerySchema>;

/** `details` of the 400 that refuses a move or copy with conflicts (code `conflict`). */
export const operationConflictSchema = z.object({
  path: z.string().meta({ description: "The source item" }),
  destinationPath: z.string(),
  type: z.enum(["file", "folder"]),
  existingType: z.enum(["file", "folder"]),
});
export type OperationConflict = z.infer<typeof operationConflictSchema>;

/* ------------------------------------------------------------------- batch rename (row 19) */

export const renamePatternSchema = z
  .object({
    find: z.string().max(255).optional(),
    replace: z.string().max(255).optional(),
    regex: z.boolean().optional(),
    ignoreCase: z.boolean().optional(),
    includeExtension: z.boolean().optional(),
    prefix: z.string().max(120).optional(),
    suffix: z.string().max(120).optional(),
    numbering: z
      .object({
        start: z.int().min(0).max(999_999).default(1),
        step: z.int().min(1).max(1000).default(1),
        padding: z.int().min(1).max(8).default(3),
        position: z.enum(["prefix", "suffix", "replace"]).default("suffix"),
        separator: z.string().max(8).default("_"),
      })
      .optional(),
  })
  .meta({ id: "RenamePattern" });
export type RenamePattern = z.input<typeof renamePatternSchema>;

export const renameBatchBodySchema = z
  .object({
    paths: z.array(requiredPathSchema).min(1).max(RENAME_PATHS_MAX),
    pattern: renamePatternSchema,
    dryRun: z.boolean().default(false),
    overwrite: z.boolean().default(false),
    expandSequences: z.boolean().default(true),
    planId: z.string().max(128).optional().meta({
      description:
        "Extension: the `planId` of a dry run; the apply is refused with `plan_stale` if the plan it would run now differs",
    }),
  })
  .meta({ id: "RenameBatchBody" });
export type RenameBatchBody = z.input<typeof renameBatchBodySchema>;

export const renameStepSchema = z.looseObject({
  from: z.string(),
  to: z.string(),
  name: z.string(),
  newName: z.string(),
});
export type RenameStep = z.infer<typeof renameStepSchema>;

export const renameBatchResultSchema = z
  .looseObject({
    dryRun: z.boolean(),
    expanded: count(),
    changed: count(),
    steps: z.array(renameStepSchema),
    conflicts: z.array(z.looseObject({})),
    applied: z.array(z.looseObject({})),
    failed: z.looseObject({}).nullable(),
  })
  .meta({ id: "RenameBatchResult" });
export type RenameBatchResult = z.infer<typeof renameBatchResultSchema>;

/* -------------------------------------------------------------- bulk work (extension) */

/** Live entries: listed paths, or all of a folder's children except some names. */
const entrySelectionSchema = z.union([
  z.object({ paths: z.array(requiredPathSchema).min(1).max(BULK_PATHS_MAX) }),
  z.object({
    folder: optionalPathSchema,
    allExcept: z
      .array(z.string().min(1).max(255))
      .max(BULK_EXCEPT_MAX)
      .meta({ description: "Names of the folder's children to leave alone" }),
  }),
]);

/** Trash items: listed ids, or all items matching a filter except some ids. */
export const trashFilterSchema = z.object({
  q: z.string().max(200).optional().meta({ description: "Substring of the item's path" }),
  folder: optionalPathSchema
    .optional()
    .meta({ description: "Items deleted from this folder or below" }),
  deletedAfter: dateTime().optional(),
  deletedBefore: dateTime().optional(),
});
export type TrashFilter = z.infer<typeof trashFilterSchema>;

const trashSelectionSchema = z.union([
  z.object({ itemIds: z.array(idSchema).min(1).max(BULK_IDS_MAX) }),
  z.object({
    filter: trashFilterSchema,
    allExcept: z.array(idSchema).max(BULK_EXCEPT_MAX),
  }),
]);

export const createBulkJobBodySchema = z
  .discriminatedUnion("action", [
    z.object({ action: z.literal("trash"), selection: entrySelectionSchema }),
    z.object({ action: z.literal("delete"), selection: entrySelectionSchema }),
    z.object({ action: z.literal("restore"), selection: trashSelectionSchema }),
    z.object({ action: z.literal("purge"), selection: trashSelectionSchema }),
  ])
  .meta({ id: "CreateBulkJobBody" });
export type CreateBulkJobBody = z.input<typeof createBulkJobBodySchema>;
export type BulkAction = CreateBulkJobBody["action"];

export const bulkFailureSchema = z.object({
  target: z.string().meta({ description: "The path or trash item id that failed" }),
  code: z.string(),
  message: z.string(),
});

export const bulkJobSchema = z
  .looseObject({
    id: z.string(),
    kind: z.literal("bulk"),
    action: z.enum(["trash", "delete", "restore", "purge"]),
    status: jobStatusSchema,
    total: count().nullable().meta({ description: "null until the selection is counted" }),
    done: count(),
    failed: count(),
    failures: z.array(bulkFailureSchema).meta({ description: "The first 100 failures" }),
    undoable: z.boolean().meta({ description: "A completed trash job can be undone once" }),
    undoOf: z.string().nullable().meta({ description: "The job this one undoes" }),
    renamed: z
      .array(z.object({ itemId: z.string(), path: z.string() }))
      .optional()
      .meta({
        description:
          "Restore jobs: items that came back under another name because their path was taken (the first 100)",
      }),
    error: z.string().nullable(),
    createdAt: dateTime(),
    startedAt: dateTime().nullable(),
    finishedAt: dateTime().nullable(),
  })
  .meta({ id: "BulkJob" });
export type BulkJob = z.infer<typeof bulkJobSchema>;
