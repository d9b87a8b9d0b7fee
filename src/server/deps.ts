import path from "node:path";
import { type Db, openDatabase } from "./db/database";
import { createPgPool, type PgPool } from "./db/pg/pool";
import type { Config } from "./env";
import { type Clock, systemClock } from "./lib/clock";
import { createLogger, type Logger } from "./lib/logger";
import { tightenDataDir } from "./lib/private-files";
import { type AttentionStore, SqliteAttentionStore } from "./modules/attention/attention-store";
import { type AccessStore, SqliteAccessStore } from "./modules/auth/access-store";
import { type BulkStore, SqliteBulkStore } from "./modules/bulk/bulk-store";
import { EventRecorder } from "./modules/events/events.repository";
import { type EventsStore, SqliteEventsStore } from "./modules/events/events-store";
import { FilesService } from "./modules/files/files.service";
import { type FilesStore, SqliteFilesStore } from "./modules/files/files-store";
import { type MailStore, SqliteMailStore } from "./modules/mail/mail-store";
import { type DirectoryStore, SqliteDirectoryStore } from "./modules/members/directory-store";
import { type OperationsStore, SqliteOperationsStore } from "./modules/operations/operations-store";
import {
  type PortalPublicStore,
  SqlitePortalPublicStore,
} from "./modules/portals/portal-public-store";
import { type PortalsStore, SqlitePortalsStore } from "./modules/portals/portals-store";
import { type SettingsStore, SqliteSettingsStore } from "./modules/settings/settings-store";
import { shareMailSent } from "./modules/shares/share-mail.service";
import { type SharePublicStore, SqliteSharePublicStore } from "./modules/shares/share-public-store";
import { type SharesStore, SqliteSharesStore } from "./modules/shares/shares-store";
import { SqliteTransfersStore, type TransfersStore } from "./modules/transfers/transfers-store";
import { WebhookDispatcher } from "./modules/webhooks/webhook-dispatcher";
import { SqliteWebhooksStore, type WebhooksStore } from "./modules/webhooks/webhooks-store";
import { JobRunner } from "./workers/job-runner";
import { SqliteUpkeepStore, type UpkeepStore } from "./workers/upkeep-store";

/** What every handler and worker reaches the outside world through; tests build their own. */
export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  jobs: JobRunner;
  events: EventRecorder;
  webhooks: WebhookDispatcher;
  /**
   * The files module's tree and its bytes (on disk, or in a bucket): one instance, since it holds
   * the blob store and the listing caches. Other modules change the tree only through it, so counts, events and
   * caches stay right, and say why beside each call: bulk (the folder of a selection, a restored
   * item's parents, unreferenced blobs), operations (the destination), transfers (a receive's
   * sources, deliverTo copies), portals (the approved folder; a spec check reads blobs), shares
   * (snapshot bytes) and the data node (the blobs it stages, commits and serves).
   */
  files: FilesService;
  /**
   * The files area's metadata port (list, search, rename, create folder, trash, versions):
   * the routes that moved behind it call it, the rest still call `files`.
   */
  filesStore: FilesStore;
  /** The per-request access path (API keys, password tries): the auth middleware calls it. */
  accessStore: AccessStore;
  /** Workspaces, members and keys as the first start and the CLIs change them. */
  directory: DirectoryStore;
  /** The mail job's reads and marks (the shares area's record of a sent link with them). */
  mailStore: MailStore;
  /** The workspace's name and logo measures (the logo's bytes stay with settings.service). */
  settingsStore: SettingsStore;
  /** Transfers' creation, list, record and progress reports (the node's writes are its own). */
  transfersStore: TransfersStore;
  /** The shares area's port (list, read, create, update, revoke, comments); the rest use `db`. */
  sharesStore: SharesStore;
  /** The recipient page's units (open, unlock, comments) and the delivery receipts' reads. */
  sharePublicStore: SharePublicStore;
  /** The portals area's console units (the review queue, decisions, reads, create, update, notes). */
  portalsStore: PortalsStore;
  /** The webhooks console's units (endpoints, REST hooks, deliveries' reads, the test ping). */
  webhooksStore: WebhooksStore;
  /** The needs-attention summary's read across portals, shares, webhooks and jobs. */
  attentionStore: AttentionStore;
  /** The event stream's pages (recording stays in each unit's transaction, through `events`). */
  eventsStore: EventsStore;
  /** Bulk jobs: their start, reads, cancel and undo (the routes), and each batch (the runner). */
  bulkStore: BulkStore;
  /** Moves' and copies' reads and cancel (planning one and its steps still use `db`). */
  operationsStore: OperationsStore;
  /** The periodic workers' units (trash purge, a share's expiry, events' retention). */
  upkeepStore: UpkeepStore;
  /** The portal page's reads without a key (open, unlock, the sender's status page). */
  portalPublicStore: PortalPublicStore;
  /**
   * PostgreSQL, when DATABASE_URL sets it: what every service process must see alike lives
   * there (docs/scale-out.md says which parts do so far). Migrated by startService.
   */
  pg: PgPool | null;
}

export function createDeps(
  config: Config,
  overrides: { clock?: Clock; log?: Logger; db?: Db } = {},
): AppDeps {
  const clock = overrides.clock ?? systemClock;
  const log = overrides.log ?? createLogger(config.logLevel);
  tightenDataDir(config.dataDir);
  const db = overrides.db ?? openDatabase(path.join(config.dataDir, "consign.db"));
  const events = new EventRecorder(db, clock);
  const pg = config.databaseUrl ? createPgPool(config.databaseUrl) : null;
  const files = new FilesService(db, clock, config, events);
  // SQLite's queue even with DATABASE_URL: an enqueue must commit with the unit that makes
  // the work, and the units still write SQLite (docs/scale-out.md, Queues and leases).
  const jobs = new JobRunner(db, clock, log.child({ component: "jobs" }));
  const deps: AppDeps = {
    config,
    db,
    clock,
    log,
    jobs,
    events,
    files,
    // SQLite's store even with DATABASE_URL: the rest of the files area (uploads, bulk work,
    // the hourly purge, copies) still writes SQLite, and one tree cannot live in two databases
    // (docs/scale-out.md, Files metadata). PgFilesStore is built and tested, not wired.
    filesStore: new SqliteFilesStore(files),
    // SQLite's even with DATABASE_URL: keys and members are still written to SQLite (the CLI,
    // bootstrap). PgAccessStore is built and tested, not wired (docs/scale-out.md, Access).
    accessStore: new SqliteAccessStore(db),
    // SQLite's even with DATABASE_URL, like the other areas' stores (the access path reads the
    // keys it writes); PgDirectoryStore is built and tested, not wired (docs/scale-out.md, Directory).
    directory: new SqliteDirectoryStore({ db, clock, events, config }),
    // SQLite's even with DATABASE_URL: the outbox rows are written by the shares and portals
    // units, still SQLite's. PgMailStore is built and tested, not wired (docs/scale-out.md, Upkeep).
    mailStore: new SqliteMailStore(db, clock, shareMailSent),
    // SQLite's even with DATABASE_URL, like the other areas' stores; PgSettingsStore is built
    // and tested, not wired (docs/scale-out.md, Settings).
    settingsStore: new SqliteSettingsStore(db),
    // SQLite's even with DATABASE_URL: the node's writes, the portals' and shares' starts and
    // the files tree still use SQLite. PgTransfersStore is built and tested, not wired
    // (docs/scale-out.md, Transfers).
    transfersStore: new SqliteTransfersStore({ db, clock, events, jobs, config }),
    // SQLite's even with DATABASE_URL, for the files store's reason: the share's files and the
    // rest of the area are SQLite's. PgSharesStore is built and tested, not wired.
    sharesStore: new SqliteSharesStore(() => deps),
    // SQLite's even with DATABASE_URL, for the shares store's reason: downloads, the data node
    // and the share's tree are SQLite's. PgSharePublicStore is built and tested, not wired.
    sharePublicStore: new SqliteSharePublicStore(() => deps),
    pg,
    webhooks: new WebhookDispatcher({
      db,
      clock,
      log: log.child({ component: "webhooks" }),
      events,
      dataDir: config.dataDir,
      allowPrivate: config.webhooksAllowPrivate,
    }),
    // SQLite's store even with DATABASE_URL: a decision moves folders in the tree and the
    // public pages still write SQLite (docs/scale-out.md, Portals metadata). PgPortalsStore is
    // built and tested, not wired.
    portalsStore: new SqlitePortalsStore(() => deps),
    // SQLite's store even with DATABASE_URL: the dispatcher's claims and every event's fan-out
    // still write SQLite (docs/scale-out.md, Webhooks). PgWebhooksStore is built and tested,
    // not wired.
    webhooksStore: new SqliteWebhooksStore(db, clock, events, () => deps.webhooks.secrets),
    // SQLite's even with DATABASE_URL: the rows it counts (uploads, downloads, shares, endpoints,
    // jobs) are still written to SQLite. PgAttentionStore is built and tested, not wired
    // (docs/scale-out.md, Attention).
    attentionStore: new SqliteAttentionStore(db, clock),
    // SQLite's even with DATABASE_URL: every unit still records its events in SQLite, in its
    // own transaction. PgEventsStore is built and tested, not wired (docs/scale-out.md, Events).
    eventsStore: new SqliteEventsStore(db),
    // SQLite's even with DATABASE_URL: a batch changes the files tree, which is still SQLite's
    // (docs/scale-out.md, Bulk work). PgBulkStore is built and tested, not wired.
    bulkStore: new SqliteBulkStore(() => deps),
    // SQLite's even with DATABASE_URL: planning a job and its steps change the files tree, which
    // is still SQLite's (docs/scale-out.md, Moves and copies). PgOperationsStore is built and
    // tested, not wired.
    operationsStore: new SqliteOperationsStore(() => deps),
    // SQLite's even with DATABASE_URL: the trash, shares and events it purges are still written
    // to SQLite. PgUpkeepStore is built and tested, not wired (docs/scale-out.md, Upkeep).
    upkeepStore: new SqliteUpkeepStore(() => deps),
    // SQLite's even with DATABASE_URL: the page's uploads (start, complete, cancel) still write
    // SQLite with their transfers (docs/scale-out.md, Portals metadata). PgPortalPublicStore is
    // built and tested, not wired.
    portalPublicStore: new SqlitePortalPublicStore(() => deps),
  };
  return deps;
}
