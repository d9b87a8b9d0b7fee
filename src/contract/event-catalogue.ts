/**
 * The event catalogue, without zod (like rules.ts), in a module of its own: only the pages that
 * show event types (Events, Webhooks) import it, so the chunk every page shares with `rules.ts`
 * does not carry its descriptions (0.6 KB gzip on the way to Files).
 */

/** The spec's event catalogue, in the order the console's picker shows it. */
export const eventCatalogue = [
  {
    type: "transfer.completed",
    area: "Transfers",
    description: "An upload or download finished cleanly",
  },
  { type: "transfer.failed", area: "Transfers", description: "A transfer ended with an error" },
  { type: "share.created", area: "Shares", description: "A share link was created" },
  { type: "share.downloaded", area: "Shares", description: "A recipient completed a download" },
  { type: "share.extended", area: "Shares", description: "A share link's expiry was extended" },
  { type: "share.revoked", area: "Shares", description: "A share link was revoked" },
  { type: "share.expired", area: "Shares", description: "A share link reached its expiry" },
  { type: "portal.created", area: "Portals", description: "An upload portal was created" },
  {
    type: "portal.upload.completed",
    area: "Portals",
    description: "A client's upload through a portal landed",
  },
  // Extension (docs/api-decisions.md, Portals): a reviewer's decision.
  {
    type: "portal.upload.reviewed",
    area: "Portals",
    description: "A reviewer approved, rejected or held a portal upload",
  },
  { type: "watch_folder.created", area: "Watch folders", description: "A watch folder was set up" },
  { type: "member.joined", area: "Members", description: "Someone joined the workspace" },
  { type: "member.removed", area: "Members", description: "A member was removed" },
  // Extensions (docs/api-decisions.md, File events): one event per request, with its paths.
  {
    type: "file.created",
    area: "Files",
    description: "Folders were created, or a file was written where there was none",
  },
  {
    type: "file.updated",
    area: "Files",
    description: "A file's content was replaced; the earlier content is kept as a version",
  },
  { type: "file.renamed", area: "Files", description: "A file or folder was renamed" },
  { type: "file.trashed", area: "Files", description: "Files or folders were moved to the trash" },
  { type: "file.restored", area: "Files", description: "A trash item was put back" },
  {
    type: "file.deleted",
    area: "Files",
    description: "Files or folders were deleted for good, or someone purged a trash item",
  },
  {
    type: "file.version_restored",
    area: "Files",
    description: "A kept version of a file was made live",
  },
  { type: "file.moved", area: "Files", description: "A move job moved files or folders" },
  { type: "file.copied", area: "Files", description: "A copy job copied files or folders" },
] as const;

/** Sent only to the endpoint being tested; not subscribable, so not in the catalogue. */
export const WEBHOOK_TEST = "webhook.test";

/** Every type that can appear in the event stream: the catalogue plus webhook tests. */
export const streamEventTypes: readonly string[] = [
  ...eventCatalogue.map((e) => e.type),
  WEBHOOK_TEST,
];
