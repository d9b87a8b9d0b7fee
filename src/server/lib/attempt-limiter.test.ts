import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SHARE_PASSWORD_FREE_TRIES } from "@/contract/rules";
import { type Db, openDatabase } from "@/server/db/database";
import { SqliteAccessStore } from "@/server/modules/auth/access-store";
import { type Attempt, tryPassword } from "./attempt-limiter";
import { ManualClock } from "./clock";

let dir: string;
let db: Db;
const clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-attempts-"));
  db = openDatabase(path.join(dir, "consign.db"));
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const attempt = (password: string): Attempt => ({
  kind: "share",
  target: "shr_1",
  address: "198.51.100.7",
  password,
});
const on = (d: Db) => ({ accessStore: new SqliteAccessStore(d), clock });
const claims = () => db.prepare("SELECT count(*) FROM password_attempts").pluck().get();

/** A check that answers when the test says so: the hashing of a password still running. */
function heldCheck() {
  let answer!: (ok: boolean) => void;
  const held = new Promise<boolean>((resolve) => {
    answer = resolve;
  });
  let runs = 0;
  const check = () => {
    runs++;
    return held;
  };
  return { check, answer, runs: () => runs };
}

describe("password tries", () => {
  it("answers the same guess in flight with one check, and gives a right one's try back", async () => {
    const held = heldCheck();
    const tries = Array.from({ length: 12 }, () =>
      tryPassword(on(db), attempt("right"), held.check),
    );
    held.answer(true);
    const verdicts = await Promise.all(tries);
    expect(held.runs()).toBe(1);
    expect(verdicts.every((v) => v.ok)).toBe(true);
    expect(claims()).toBe(0);
  });

  it("counts tries claimed by another connection to the database, as another process would", async () => {
    const other = openDatabase(path.join(dir, "consign.db"));
    const held = heldCheck();
    const tries = Array.from({ length: SHARE_PASSWORD_FREE_TRIES }, (_, i) =>
      tryPassword(on(i % 2 ? other : db), attempt(`guess ${i}`), held.check),
    );
    await expect(tryPassword(on(db), attempt("right"), held.check)).rejects.toMatchObject({
      status: 429,
      details: { per: "address", retryAfterSeconds: 1 },
    });
    held.answer(false);
    expect((await Promise.all(tries)).map((v) => v.triesBeforeDelay)).toEqual([4, 3, 2, 1, 0]);
    expect(held.runs()).toBe(SHARE_PASSWORD_FREE_TRIES);
    other.close();
  });

  it("keeps the try of a check that throws", async () => {
    const broken = () => Promise.reject(new Error("unreadable hash"));
    await expect(tryPassword(on(db), attempt("x"), broken)).rejects.toThrow("unreadable");
    expect(claims()).toBe(1);
  });
});
