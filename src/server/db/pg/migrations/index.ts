import { coreSql } from "./0001-baseline-core";
import { deliverySql } from "./0001-baseline-delivery";
import { deliveryLeasesSql } from "./0003-delivery-leases";
import { rateWindowsSql } from "./0004-rate-windows";
import { blobHoldsSql } from "./0005-blob-holds";
import { transferNodesSql } from "./0006-transfer-nodes";
import { uploadPartsSql } from "./0007-upload-parts";

export interface PgMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * PostgreSQL's schema, hand-written (docs/scale-out.md, Metadata). Migration 1 is the SQLite
 * schema as of its migration 0018 in one step: a PostgreSQL install starts there, so SQLite's
 * history of rebuilds and backfills has no twin. Later changes are added to both lists. Every
 * text column is COLLATE "C" (SQLite compares bytes; keyset pages and prefix ranges rely on it),
 * times are BIGINT milliseconds, JSON stays TEXT and booleans 0/1, so a row reads the same from
 * either engine. FTS5's trigram index becomes pg_trgm's. Tables only one engine needs are named in
 * `pgOnlyTables`.
 */
export const pgMigrations: readonly PgMigration[] = [
  { version: 1, name: "baseline", sql: coreSql + deliverySql },
  { version: 3, name: "delivery-leases", sql: deliveryLeasesSql },
  { version: 4, name: "rate-windows", sql: rateWindowsSql },
  { version: 5, name: "blob-holds", sql: blobHoldsSql },
  { version: 6, name: "transfer-nodes", sql: transferNodesSql },
  { version: 7, name: "upload-parts", sql: uploadPartsSql },
];

/** PostgreSQL's tables that SQLite has no twin of, and why: state one process keeps in memory. */
export const pgOnlyTables = ["rate_windows", "rate_hits"] as const;
