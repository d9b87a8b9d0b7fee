import type Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";
import { serviceProcesses } from "@/server/testing/service-process";

const service = serviceProcesses("consign-operations-kill-");
afterAll(() => service.close());

it("kill -9 of one of two processes in the middle of a large move: the other takes the job over and completes it, every item moved exactly once", async () => {
  const first = await service.start();
  const second = await service.start();
  const { call, w } = await service.signedIn(first);
  // 30 folders of 1,000 entries, and one of 30,000, which is moved in steps.
  await service.seed("--entries", "30000", "--folder", "src", "--tree");
  await service.seed("--entries", "30000", "--folder", "src/big");
  await call(first.origin, "POST", w("/files/folder"), { path: "dst" });
  const listing = await call(first.origin, "GET", w("/files?path=src&count=1000"));
  const folders: string[] = listing.json.items.map((i: { path: string }) => i.path);
  expect(folders).toHaveLength(31);
  // The big folder first: the kill comes while its copy is being built, hidden.
  folders.sort((a, b) => Number(b === "src/big") - Number(a === "src/big"));
  const live = (db: Database.Database, range: string) =>
    db
      .prepare("SELECT count(*) FROM entries WHERE trash_id IS NULL AND path >= ? AND path < ?")
      .pluck()
      .get(`${range}/`, `${range}0`) as number;
  const before = (() => {
    const db = service.open(true);
    try {
      return live(db, "src");
    } finally {
      db.close();
    }
  })();

  const job = await call(first.origin, "POST", w("/files/operations"), {
    kind: "move",
    paths: folders,
    destination: "dst",
  });
  expect(job.status).toBe(201);
  const hiddenRows = () => {
    const db = service.open(true);
    try {
      return db.prepare("SELECT count(*) FROM entries WHERE trash_id LIKE 'op:%'").pluck().get();
    } finally {
      db.close();
    }
  };
  while (hiddenRows() === 0) await new Promise((r) => setTimeout(r, 2));
  const seen = (await call(first.origin, "GET", w(`/files/operations/${job.json.id}`))).json;
  // Both run workers: the job is on whichever claimed it; that one is killed.
  const holder = service.jobHolder()!;
  const survivor = holder === first.child ? second : first;
  await service.kill(holder);
  expect(seen.status).toBe("running");
  expect(seen.filesDone).toBeLessThan(seen.filesTotal);

  expect(service.expireLeasesOf(holder).jobs).toBe(1);
  let end = seen;
  // Bounded by the test's timeout, not a count: on a loaded machine the rest of the move takes
  // minutes (the test timed out at load 14 on 2 cores).
  while (end.status === "running" || end.status === "queued") {
    await new Promise((r) => setTimeout(r, 50));
    end = (await call(survivor.origin, "GET", w(`/files/operations/${job.json.id}`))).json;
  }
  expect(end).toMatchObject({ status: "completed", error: null });
  expect(end.filesDone).toBe(end.filesTotal);
  expect(end.bytesDone).toBe(end.bytesTotal);
  expect(end.items.every((i: { status: string }) => i.status === "done")).toBe(true);
  const check = service.open(true);
  try {
    expect(live(check, "src")).toBe(0);
    expect(live(check, "dst")).toBe(before);
    const duplicates = check
      .prepare(
        "SELECT count(*) FROM (SELECT path FROM entries WHERE trash_id IS NULL GROUP BY path HAVING count(*) > 1)",
      )
      .pluck()
      .get();
    expect(duplicates).toBe(0);
    // Neither the hidden copy nor the hidden originals are left behind.
    expect(
      check.prepare("SELECT count(*) FROM entries WHERE trash_id LIKE 'op:%'").pluck().get(),
    ).toBe(0);
  } finally {
    check.close();
  }
  await service.kill(second.child);
}, 300_000);
