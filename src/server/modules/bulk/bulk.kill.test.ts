import { afterAll, expect, it } from "vitest";
import { serviceProcesses } from "@/server/testing/service-process";

const service = serviceProcesses("consign-bulk-kill-");
afterAll(() => service.close());

it("kill -9 of one of two processes in the middle of a bulk trash of a big folder: the other ends the job, nothing lost or done twice", async () => {
  const first = await service.start();
  const second = await service.start();
  const { call, w } = await service.signedIn(first);
  await service.seed("--entries", "30000", "--folder", "big");

  const job = await call(first.origin, "POST", w("/files/bulk"), {
    action: "trash",
    selection: { folder: "big", allExcept: [] },
  });
  expect(job.status).toBe(201);
  let seen = job.json;
  // Gently: a loop without a pause ran through the key's 600 requests a minute while the job
  // waited for a worker's poll, and read a 429 as the job.
  while (seen.done === 0) {
    await new Promise((r) => setTimeout(r, 5));
    const read = await call(first.origin, "GET", w(`/files/bulk/${job.json.id}`));
    expect(read.status).toBe(200);
    seen = read.json;
  }
  // Both run workers: the job is on whichever claimed it; that one is killed.
  const holder = service.jobHolder()!;
  const survivor = holder === first.child ? second : first;
  await service.kill(holder);
  expect(seen.status).toBe("running");
  expect(seen.done).toBeLessThan(30_000);

  expect(service.expireLeasesOf(holder).jobs).toBe(1);
  let end = seen;
  for (let i = 0; i < 600 && (end.status === "running" || end.status === "queued"); i++) {
    await new Promise((r) => setTimeout(r, 50));
    end = (await call(survivor.origin, "GET", w(`/files/bulk/${seen.id}`))).json;
  }
  expect(end).toMatchObject({ status: "completed", total: 30_000, done: 30_000, failed: 0 });
  const listing = await call(survivor.origin, "GET", w("/files?path=big"));
  expect(listing.json.total).toBe(0);

  const db = service.open(true);
  const count = (sql: string, ...params: unknown[]) =>
    db
      .prepare(sql)
      .pluck()
      .get(...params);
  try {
    expect(count("SELECT count(*) FROM trash_items WHERE path LIKE 'big/%'")).toBe(30_000);
    expect(count("SELECT count(DISTINCT entry_id) FROM trash_items")).toBe(30_000);
    expect(count("SELECT count(*) FROM bulk_job_trash WHERE job_id = ?", seen.id)).toBe(30_000);
    expect(count("SELECT count(*) FROM entries WHERE path LIKE 'big/%' AND trash_id IS NULL")).toBe(
      0,
    );
    expect(
      count(
        "SELECT folder_count + file_count FROM entries WHERE path = 'big' AND trash_id IS NULL",
      ),
    ).toBe(0);
    expect(
      count(
        "SELECT count(*) FROM events WHERE type = 'file.trashed' AND data LIKE ?",
        `%${seen.id}%`,
      ),
    ).toBe(1);
  } finally {
    db.close();
  }
  await service.kill(second.child);
}, 120_000);
