import type { Db } from "@/server/db/database";
import { tempSqlite } from "@/server/testing/engine-suites";
import { insertTransfer, type NewTransfer } from "./transfers.repository";

/* The rows transfers-store.test.ts and transfers-store.pg.test.ts run on. */

export const T0 = Date.parse("2026-03-01T09:00:00Z");
export const NOW = T0 + 60_000;

export function transfer(id: string, createdAt: number, o: Partial<NewTransfer> = {}): NewTransfer {
  return {
    id,
    workspace_id: "ws",
    key_id: null,
    direction: "send",
    client: "agent",
    engine: "consign-tus",
    streams: 4,
    priority: "normal",
    usage_id: `usg_${id}`,
    files_total: null,
    bytes_total: null,
    source_root: "",
    destination_root: "",
    file_count: null,
    total_bytes: null,
    growing_file_wait: null,
    deliver_to: "[]",
    protection_salt: null,
    options: "{}",
    device_id: null,
    share_id: null,
    portal_id: null,
    paths_count: 0,
    token_hash: `hash_${id}`,
    node: "embedded",
    token_expires_at: createdAt + 3_600_000,
    created_at: createdAt,
    ...o,
  };
}

export const pathItems = (n: number, dir: string) =>
  Array.from({ length: n }, (_, i) => ({
    source: `/local/f${i}.exr`,
    destination: `${dir}/f${i}.exr`,
  }));

/**
 * Four transfers: a send of 120 paths with deliverTo and usage recorded, a receive, a send with
 * an upload in flight and a cancelled send made in the same millisecond (ties go by id).
 */
export function seedSqlite(
  more?: (
    add: (row: NewTransfer, paths: { source: string; destination: string }[]) => void,
    db: Db,
  ) => void,
) {
  const seeded = tempSqlite("consign-transfers-store-");
  const { db } = seeded;
  db.prepare("INSERT INTO workspaces (id, name, created_at) VALUES ('ws', 'W', 0)").run();
  const add = (row: NewTransfer, paths: { source: string; destination: string }[]) =>
    insertTransfer(db, { ...row, paths_count: paths.length }, paths);
  db.transaction(() => {
    add(
      transfer("t1", T0 + 1, {
        deliver_to: '["deliveries"]',
        file_count: 2,
        files_total: 2,
        destination_root: "Été",
      }),
      pathItems(120, "shots"),
    );
    add(transfer("t2", T0 + 2, { direction: "receive", bytes_total: 1000 }), [
      { source: "plates/a.exr", destination: "/dl/a.exr" },
      { source: "plates/b.exr", destination: "/dl/b.exr" },
    ]);
    add(transfer("t3", T0 + 3, { files_total: 1 }), pathItems(1, "up"));
    add(transfer("t4", T0 + 3), pathItems(1, "gone"));
    db.prepare("UPDATE transfers SET status = 'cancelled' WHERE id = 't4'").run();
    const usage = db.prepare(
      `INSERT INTO usage_records (usage_id, workspace_id, transfer_id, direction, bytes, recorded_at)
       VALUES ('usg_t1', 'ws', 't1', 'send', ?, ?)`,
    );
    usage.run(700, T0);
    usage.run(5, T0 + 1);
    db.prepare(
      `INSERT INTO transfer_uploads (id, transfer_id, workspace_id, path, size, status, created_at, updated_at, expires_at)
       VALUES ('up_1', 't3', 'ws', 'up/f0.exr', 10, 'uploading', ?, ?, ?)`,
    ).run(T0, T0, T0 + 3_600_000);
    more?.(add, db);
  })();
  return seeded;
}
