import path from "node:path";
import { type Db, openDatabase } from "./db/database";
import { createPgPool, type PgPool } from "./db/pg/pool";
import type { Config } from "./env";
import { type Clock, systemClock } from "./lib/clock";
import { createLogger, type Logger } from "./lib/logger";
import { tightenDataDir } from "./lib/private-files";
import { type AccessStore, SqliteAccessStore } from "./modules/auth/access-store";
import { EventRecorder } from "./modules/events/events.repository";
import { FilesService } from "./modules/files/files.service";
import { type FilesStore, SqliteFilesStore } from "./modules/files/files-store";
import {
  type PortalPublicStore,
  SqlitePortalPublicStore,
} from "./modules/portals/portal-public-store";
import { type PortalsStore, SqlitePortalsStore } from "./modules/portals/portals-store";
import { type SettingsStore, SqliteSettingsStore } from "./modules/settings/settings-store";
import { type SharesStore, SqliteSharesStore } from "./modules/shares/shares-store";
import { SqliteTransfersStore, type TransfersStore } from "./modules/transfers/transfers-store";
import { WebhookDispatcher } from "./modules/webhooks/webhook-dispatcher";
import { JobRunner } from "./workers/job-runner";

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
  /** The workspace's name and logo measures (the logo's bytes stay with settings.service). */
  settingsStore: SettingsStore;
  /** Transfers' list, record and progress reports (creating one is start.service's). */
  transfersStore: TransfersStore;
  /** The shares area's port (list, read, create, update, revoke, comments); the rest use `db`. */
  sharesStore: SharesStore;
  /** The portals area's console units (the review queue, a decision, portals' reads). */
  portalsStore: PortalsStore;
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
    // SQLite's even with DATABASE_URL, like the other areas' stores; PgSettingsStore is built
    // and tested, not wired (docs/scale-out.md, Settings).
    settingsStore: new SqliteSettingsStore(db),
    // SQLite's even with DATABASE_URL: creating a transfer and the node's writes still use
    // SQLite. PgTransfersStore is built and tested, not wired (docs/scale-out.md, Transfers).
    transfersStore: new SqliteTransfersStore({ db, clock, events, jobs }),
    // SQLite's even with DATABASE_URL, for the files store's reason: the share's files and the
    // rest of the area are SQLite's. PgSharesStore is built and tested, not wired.
    sharesStore: new SqliteSharesStore(() => deps),
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
    // SQLite's even with DATABASE_URL: the page's uploads (start, complete, cancel) still write
    // SQLite with their transfers (docs/scale-out.md, Portals metadata). PgPortalPublicStore is
    // built and tested, not wired.
    portalPublicStore: new SqlitePortalPublicStore(() => deps),
  };
  return deps;
}
