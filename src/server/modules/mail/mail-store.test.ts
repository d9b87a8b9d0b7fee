import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { moveRows } from "@/server/db/pg/move-rows";
import { ManualClock } from "@/server/lib/clock";
import { shareMailSent } from "@/server/modules/shares/share-mail.service";
import { shareMailSentPg } from "@/server/modules/shares/shares-rows.pg";
import { SEEDED, seedSqlite, T0, WS } from "@/server/modules/shares/shares-store.seed";
import { freshPgDatabase } from "@/server/testing/pg-database";
import { type MailStore, SqliteMailStore } from "./mail-store";
import { PgMailStore } from "./mail-store.pg";

/* The mail job's units on both engines, over the shares seed (a share with a recipient). */

const RECIPIENT = `${SEEDED.active}r0`;
const SENT = T0 + 60_000;

interface Engine {
  store: MailStore;
  clock: ManualClock;
  rows(sql: string): Promise<Record<string, unknown>[]>;
}

/** The shares seed and three queued messages: two to the share's recipient, one to a portal's. */
function seed() {
  const seeded = seedSqlite();
  const insert = seeded.db.prepare(
    `INSERT INTO mail_outbox (id, workspace_id, share_id, portal_id, recipient_id, channel, to_address, subject, body, link, status, error, created_at)
     VALUES (?, ?, ?, NULL, ?, 'email', 'ana@example.com', 'Your files', 'Open {{link}}', ?, 'queued', NULL, ?)`,
  );
  insert.run("msg1", WS, SEEDED.active, RECIPIENT, "https://c.test/s/abc", T0);
  insert.run("msg2", WS, SEEDED.active, RECIPIENT, "https://c.test/s/def", T0 + 1);
  insert.run("msg3", WS, null, null, null, T0 + 2);
  return seeded;
}

function sqliteEngine(): () => Engine {
  let seeded: ReturnType<typeof seed>;
  const clock = new ManualClock(T0);
  beforeAll(() => {
    seeded = seed();
  });
  afterAll(() => seeded.close());
  return () => ({
    store: new SqliteMailStore(seeded.db, clock, shareMailSent),
    clock,
    rows: async (sql) => seeded.db.prepare(sql).all() as Record<string, unknown>[],
  });
}

function postgresEngine(): () => Engine {
  const pool = freshPgDatabase({ locale: "en-US" });
  const clock = new ManualClock(T0);
  beforeAll(async () => {
    const source = seed();
    await moveRows(source.db, pool());
    source.close();
  });
  return () => ({
    store: new PgMailStore(pool(), clock, shareMailSentPg),
    clock,
    rows: async (sql) => (await pool().query(sql)).rows,
  });
}

const message = async (e: Engine, id: string) =>
  (
    await e.rows(
      `SELECT status, link, smtp_message_id, sent_at, attempts, error FROM mail_outbox WHERE id = '${id}'`,
    )
  )[0];
const recipientSentAt = async (e: Engine) =>
  (await e.rows(`SELECT sent_at FROM share_recipients WHERE id = '${RECIPIENT}'`))[0]!.sent_at;

describe.each([
  { engine: "SQLite", use: sqliteEngine },
  { engine: "PostgreSQL", use: postgresEngine },
])("the mail job's units on $engine", ({ use }) => {
  const open = use();

  it("read a message, and nothing for an unknown one", async () => {
    const e = open();
    expect(await e.store.message("msg1")).toMatchObject({
      id: "msg1",
      recipient_id: RECIPIENT,
      status: "queued",
      link: "https://c.test/s/abc",
      attempts: 0,
      created_at: T0,
    });
    expect(await e.store.message("nope")).toBeUndefined();
  });

  it("mark a message sent with its recipient's sentAt, once", async () => {
    const e = open();
    e.clock.set(SENT);
    const m = (await e.store.message("msg1"))!;
    await e.store.markSent(m, "<smtp-1@x>");
    expect(await message(e, "msg1")).toEqual({
      status: "sent",
      link: null,
      smtp_message_id: "<smtp-1@x>",
      sent_at: SENT,
      attempts: 1,
      error: null,
    });
    expect(await recipientSentAt(e)).toBe(SENT);
    // A second run of the job (its first ended after the send): nothing moves.
    e.clock.set(SENT + 60_000);
    await e.store.markSent(m, "<smtp-2@x>");
    expect(await message(e, "msg1")).toMatchObject({ smtp_message_id: "<smtp-1@x>", attempts: 1 });
    expect(await recipientSentAt(e)).toBe(SENT);
  });

  it("count failed attempts, give up on the final one, and leave a sent message alone", async () => {
    const e = open();
    await e.store.markFailed("msg2", "451 try later", false);
    expect(await message(e, "msg2")).toMatchObject({
      status: "queued",
      attempts: 1,
      error: "451 try later",
    });
    await e.store.markFailed("msg2", "550 no such user", true);
    expect(await message(e, "msg2")).toMatchObject({
      status: "failed",
      attempts: 2,
      error: "550 no such user",
    });
    await e.store.markFailed("msg1", "late", true);
    expect(await message(e, "msg1")).toMatchObject({ status: "sent", attempts: 1, error: null });
    // A message of no share's recipient: sent, nobody else's row touched.
    e.clock.set(SENT + 120_000);
    await e.store.markSent((await e.store.message("msg3"))!, null);
    expect(await message(e, "msg3")).toMatchObject({ status: "sent", sent_at: SENT + 120_000 });
    expect(await recipientSentAt(e)).toBe(SENT);
  });
});
