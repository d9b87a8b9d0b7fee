import { z } from "zod";
import { dateTime, idSchema, queryBoolean, queryInteger } from "./common";
import { eventCatalogue, streamEventTypes, WEBHOOK_TEST } from "./event-catalogue";

export { eventCatalogue, streamEventTypes, WEBHOOK_TEST };

export type EventType = (typeof eventCatalogue)[number]["type"];
export const eventTypes = eventCatalogue.map((e) => e.type) as EventType[];
export const eventTypeSchema = z.enum(eventTypes as [EventType, ...EventType[]]);

const member = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(["admin", "member"]),
  joinedAt: dateTime(),
});

/** The paths a file event is about: one per item of the request, never one event per file. */
const filePaths = z.array(z.string()).min(1);

/**
 * Members of the one event a bulk job records when it ends (docs/api-decisions.md, Bulk work):
 * `paths` then holds the first 100 items only.
 */
const bulkJobMembers = {
  jobId: z.string().optional().meta({ description: "The bulk job that did it" }),
  count: z.int().optional().meta({ description: "A bulk job: how many items it did" }),
  failed: z.int().optional().meta({ description: "A bulk job: how many items failed" }),
};

/** The one event a move or copy job records when it ends, if it did any item. */
const operationEventData = z.looseObject({
  paths: filePaths.meta({ description: "Where the first 100 items done are now" }),
  from: z.array(z.string()).meta({ description: "Where those items were, in the same order" }),
  jobId: z.string(),
  destination: z.string(),
  status: z
    .enum(["completed", "failed", "cancelled"])
    .meta({ description: "How the job ended; items done before a cancel or failure stay done" }),
  files: z.int().meta({ description: "Files handled (skipped items included)" }),
  bytes: z.number(),
});

/**
 * `data` per event type. Loose objects: an area may add members later, and receivers must
 * tolerate members they do not know (docs/api-decisions.md, Webhooks and events).
 */
export const eventDataSchemas = {
  "transfer.completed": z.looseObject({
    transferId: z.string(),
    direction: z.enum(["send", "receive"]),
    client: z.string(),
    files: z.number().int().nullable(),
    bytes: z.number().nullable(),
    rateKbps: z.number().nullable(),
    paths: z.array(z.string()).meta({ description: "Up to the first 100 paths of the transfer" }),
    finishedAt: dateTime(),
  }),
  "transfer.failed": z.looseObject({
    transferId: z.string(),
    direction: z.enum(["send", "receive"]),
    client: z.string(),
    filesDone: z.number().int(),
    bytesDone: z.number(),
    errorCode: z.string().nullable(),
    errorMessage: z.string().nullable(),
  }),
  "share.created": z.looseObject({
    shareId: z.string(),
    title: z.string().nullable(),
    items: z.array(
      z.looseObject({
        path: z.string(),
        sizeBytes: z.number().nullable(),
        type: z.enum(["file", "folder"]).optional(),
        fileCount: z.int().optional(),
      }),
    ),
    expiresAt: dateTime().nullable(),
    recipients: z.array(z.string()),
    fileCount: z.int().optional(),
    totalBytes: z.number().optional(),
    maxDownloads: z.int().nullable().optional(),
    passwordProtected: z.boolean().optional(),
  }),
  "share.downloaded": z.looseObject({
    shareId: z.string(),
    recipient: z
      .string()
      .nullable()
      .meta({ description: "The recipient's address; null: the plain link" }),
    files: z.number().int(),
    bytes: z.number(),
    verified: z.boolean(),
    downloadId: z.string().optional().meta({ description: "The download on the share's receipt" }),
    transferId: z.string().nullable().optional(),
  }),
  "share.extended": z.looseObject({
    shareId: z.string(),
    expiresAt: dateTime().nullable(),
    previousExpiresAt: dateTime().nullable(),
    maxDownloads: z.int().nullable().optional(),
    previousMaxDownloads: z.int().nullable().optional(),
  }),
  "share.revoked": z.looseObject({ shareId: z.string() }),
  "share.expired": z.looseObject({ shareId: z.string(), expiredAt: dateTime() }),
  "portal.created": z.looseObject({
    portalId: z.string(),
    slug: z.string(),
    title: z.string(),
    targetPath: z.string(),
  }),
  "portal.upload.completed": z.looseObject({
    portalId: z.string(),
    uploadId: z.string(),
    folder: z.string(),
    files: z.number().int(),
    bytes: z.number(),
    sender: z.object({ email: z.string().nullable(), name: z.string().nullable() }),
  }),
  "portal.upload.reviewed": z.looseObject({
    portalId: z.string(),
    uploadId: z.string(),
    folder: z.string(),
    decision: z.enum(["approved", "rejected", "pending"]),
    previousStatus: z.string(),
    note: z.string().nullable(),
    reviewedBy: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  }),
  "watch_folder.created": z.looseObject({ watchFolderId: z.string(), path: z.string() }),
  "member.joined": z.looseObject({ member }),
  "member.removed": z.looseObject({ member: member.extend({ removedAt: dateTime() }) }),
  "file.created": z.looseObject({
    paths: filePaths.meta({
      description: "Every entry the request created, each folder before what it holds",
    }),
  }),
  "file.updated": z.looseObject({ paths: filePaths }),
  "file.renamed": z.union([
    z.looseObject({
      paths: filePaths.meta({ description: "The new path" }),
      from: z.string(),
      to: z.string(),
    }),
    z.looseObject({
      paths: filePaths.meta({ description: "A batch rename: every new path" }),
      renames: z
        .array(z.object({ from: z.string(), to: z.string() }))
        .meta({ description: "A batch rename: the first 100 renames, in the plan's order" }),
      count: z.int().meta({ description: "A batch rename: how many items it renamed" }),
    }),
  ]),
  "file.trashed": z.looseObject({
    paths: filePaths.meta({ description: "Where the items were; a folder's contents go with it" }),
    itemIds: z.array(z.string()).meta({ description: "The trash item of each path, in order" }),
    purgeAt: dateTime().meta({ description: "When the service purges them (no event then)" }),
    ...bulkJobMembers,
  }),
  "file.restored": z.union([
    z.looseObject({
      paths: filePaths.meta({ description: "Where the item is now" }),
      itemId: z.string(),
      originalPath: z.string(),
      renamed: z.boolean().meta({ description: "true when it came back under another name" }),
    }),
    z.looseObject({
      paths: filePaths.meta({ description: "Where the first 100 items are now" }),
      itemIds: z.array(z.string()).meta({ description: "The first 100 items, in order" }),
      ...bulkJobMembers,
    }),
  ]),
  "file.deleted": z.looseObject({
    paths: filePaths.meta({ description: "Where the items were" }),
    itemId: z
      .string()
      .optional()
      .meta({ description: "Present when a trash item was purged: its id" }),
    itemIds: z
      .array(z.string())
      .optional()
      .meta({ description: "A bulk purge: the first 100 items purged" }),
    ...bulkJobMembers,
  }),
  "file.version_restored": z.looseObject({ paths: filePaths, versionId: z.string() }),
  "file.moved": operationEventData,
  "file.copied": operationEventData,
} satisfies Record<EventType, z.ZodType>;

export type EventData<T extends EventType> = z.infer<(typeof eventDataSchemas)[T]>;

export const webhookTestDataSchema = z.object({ webhookId: z.string(), message: z.string() });

/** One event as the stream returns it; the webhook body is this plus `delivery`. */
export const eventSchema = z
  .object({
    id: z.string().meta({ description: "Sortable id; the idempotency key and the stream cursor" }),
    type: z.string().meta({ description: "A catalogue type or `webhook.test`" }),
    createdAt: dateTime(),
    workspaceId: z.string(),
    data: z
      .record(z.string(), z.unknown())
      .meta({ description: "Members per type: docs/api-decisions.md" }),
  })
  .meta({ id: "Event" });
export type Event = z.infer<typeof eventSchema>;

export const EVENTS_PAGE_DEFAULT = 100;
export const EVENTS_PAGE_MAX = 1000;
export const EVENTS_RETENTION_DAYS = 30;

/** One stream event type, as an alternation for a pattern (their dots escaped). */
const EVENT_TYPE = streamEventTypes.map((t) => t.replaceAll(".", "\\.")).join("|");

export const eventsQuerySchema = z.object({
  after: idSchema.optional().meta({
    description:
      "The last event id seen (the previous page's `next`); omitted: the oldest retained event",
  }),
  types: z
    .string()
    .max(2000)
    .optional()
    .transform((s) =>
      s
        ? [
            ...new Set(
              s
                .split(",")
                .map((t) => t.trim())
                .filter(Boolean),
            ),
          ]
        : [],
    )
    .pipe(z.array(z.enum(streamEventTypes as [string, ...string[]])).max(50))
    .meta({
      description:
        "Comma-separated event types to include (at most 50 different ones); omitted: every type",
      pattern: `^(?:${EVENT_TYPE})(?:,(?:${EVENT_TYPE}))*$`,
    }),
  limit: queryInteger(1, EVENTS_PAGE_MAX).default(EVENTS_PAGE_DEFAULT),
  latest: queryBoolean.optional().meta({
    description:
      "Extension. Without `after`: return the newest `limit` events (a live tail starts here)",
  }),
});
export type EventsQuery = z.input<typeof eventsQuerySchema>;

export const eventsPageSchema = z
  .object({
    events: z.array(eventSchema),
    next: idSchema.nullable().meta({
      description: "Pass as `after` for the following page; null only when the stream is empty",
    }),
    hasMore: z.boolean().meta({ description: "More events already exist after this page" }),
  })
  .meta({ id: "EventsPage" });
export type EventsPage = z.infer<typeof eventsPageSchema>;

/** A made-up `data` per type: REST-hook samples before a workspace has real events, and docs. */
export const sampleEventData: Record<string, Record<string, unknown>> = {
  "transfer.completed": {
    transferId: "01jz0000000000000000000001",
    direction: "send",
    client: "desktop",
    files: 3,
    bytes: 5_368_709_120,
    rateKbps: 812_000,
    paths: [
      "Projects/Trailer/v3/trailer_v3.mov",
      "Projects/Trailer/v3/stems.wav",
      "Projects/Trailer/v3/notes.pdf",
    ],
    finishedAt: "2026-06-01T12:00:00.000Z",
  },
  "transfer.failed": {
    transferId: "01jz0000000000000000000002",
    direction: "receive",
    client: "agent",
    filesDone: 1,
    bytesDone: 1_048_576,
    errorCode: "connection_lost",
    errorMessage: "The engine lost its connection for longer than the retry window",
  },
  "share.created": {
    shareId: "01jz0000000000000000000003",
    title: "Final cut for review",
    items: [{ path: "Projects/Trailer/v3/trailer_v3.mov", sizeBytes: 5_368_709_120 }],
    expiresAt: "2026-06-15T12:00:00.000Z",
    recipients: ["producer@example.com"],
  },
  "share.downloaded": {
    shareId: "01jz0000000000000000000003",
    recipient: "producer@example.com",
    files: 1,
    bytes: 5_368_709_120,
    verified: true,
  },
  "share.extended": {
    shareId: "01jz0000000000000000000003",
    expiresAt: "2026-06-30T12:00:00.000Z",
    previousExpiresAt: "2026-06-15T12:00:00.000Z",
  },
  "share.revoked": { shareId: "01jz0000000000000000000003" },
  "share.expired": { shareId: "01jz0000000000000000000003", expiredAt: "2026-06-15T12:00:00.000Z" },
  "portal.created": {
    portalId: "01jz0000000000000000000004",
    slug: "dailies-in",
    title: "Send us your dailies",
    targetPath: "Incoming/Dailies",
  },
  "portal.upload.completed": {
    portalId: "01jz0000000000000000000004",
    uploadId: "01jz0000000000000000000005",
    folder: "Incoming/Dailies/2026-06-01 Ana",
    files: 12,
    bytes: 48_318_382_080,
    sender: { email: "ana@example.com", name: "Ana" },
  },
  "portal.upload.reviewed": {
    portalId: "01jz0000000000000000000004",
    uploadId: "01jz0000000000000000000005",
    folder: "Incoming/Dailies/2026-06-01 Ana",
    decision: "rejected",
    previousStatus: "received",
    note: "Wrong frame rate: please send 25 fps",
    reviewedBy: { id: "01jz0000000000000000000001", name: "Sam", email: "sam@example.com" },
  },
  "watch_folder.created": {
    watchFolderId: "01jz0000000000000000000006",
    path: "Incoming/Hot folder",
  },
  "member.joined": {
    member: {
      id: "01jz0000000000000000000007",
      email: "ed@example.com",
      name: "Ed",
      role: "member",
      joinedAt: "2026-06-01T12:00:00.000Z",
    },
  },
  "member.removed": {
    member: {
      id: "01jz0000000000000000000007",
      email: "ed@example.com",
      name: "Ed",
      role: "member",
      joinedAt: "2026-06-01T12:00:00.000Z",
      removedAt: "2026-06-02T12:00:00.000Z",
    },
  },
  "file.created": { paths: ["Incoming/Dailies", "Incoming/Dailies/notes.txt"] },
  "file.updated": { paths: ["Projects/Trailer/v3/notes.pdf"] },
  "file.renamed": {
    paths: ["Projects/Trailer/v4"],
    from: "Projects/Trailer/v3",
    to: "Projects/Trailer/v4",
  },
  "file.trashed": {
    paths: ["Projects/Trailer/old", "Projects/Trailer/draft.mov"],
    itemIds: ["01jz0000000000000000000009", "01jz000000000000000000000a"],
    purgeAt: "2026-07-01T12:00:00.000Z",
  },
  "file.restored": {
    paths: ["Projects/Trailer/draft (restored).mov"],
    itemId: "01jz000000000000000000000a",
    originalPath: "Projects/Trailer/draft.mov",
    renamed: true,
  },
  "file.deleted": { paths: ["Projects/Trailer/old"], itemId: "01jz0000000000000000000009" },
  "file.version_restored": {
    paths: ["Projects/Trailer/v3/notes.pdf"],
    versionId: "01jz000000000000000000000b",
  },
  "file.moved": {
    paths: ["Deliveries/Trailer/v3", "Deliveries/Trailer/shot.0001.exr"],
    from: ["Projects/Trailer/v3", "Projects/Trailer/shot.0001.exr"],
    jobId: "01jz000000000000000000000c",
    destination: "Deliveries/Trailer",
    status: "completed",
    files: 14,
    bytes: 5_368_709_120,
  },
  "file.copied": {
    paths: ["Archive/Trailer/v3"],
    from: ["Projects/Trailer/v3"],
    jobId: "01jz000000000000000000000d",
    destination: "Archive/Trailer",
    status: "completed",
    files: 12,
    bytes: 5_368_707_000,
  },
  [WEBHOOK_TEST]: { webhookId: "01jz0000000000000000000008", message: "A test event from Consign" },
};
