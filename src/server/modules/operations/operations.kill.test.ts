import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-kill-"));
const env = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: "warn", DEMO_CONTENT: "0" };
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/**
 * The real service as a process on this data dir; resolves with its address once it listens
 * (and, on the first start, the admin key its sign-in link holds).
 */
async function startProcess(
  firstStart: boolean,
): Promise<{ child: ChildProcess; origin: string; key?: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: { ...env, PORT: "0", HOST: "127.0.0.1", STATIC_DIR: path.join(dataDir, "none") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  let out = "";
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`service exited with ${code}: ${out}`)));
    child.stdout!.on("data", (d) => {
      out += String(d);
      const origin = /running at (http:\/\/\S+) /.exec(out)?.[1];
      const key = /#key=(svc_sk_\w{40})/.exec(out)?.[1];
      if (origin && (key || !firstStart)) resolve({ child, origin, key });
    });
  });
}

const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });

it("kill -9 in the middle of a large move, then a restart: the job completes, every item moved exactly once", async () => {
  const first = await startProcess(true);
  const key = first.key!;
  const call = async (origin: string, method: string, url: string, body?: unknown) => {
    const res = await fetch(`${origin}${url}`, {
      method,
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: reads whatever the service answered
    return { status: res.status, json: (await res.json()) as any };
  };
  const me = await call(first.origin, "GET", "/v1/auth/key");
  const w = (suffix: string) => `/v1/workspaces/${me.json.workspace.id}${suffix}`;
  // 30 folders of 1,000 entries (the seed CLI writes beside the running service).
  execFileSync(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/server/cli/seed.ts",
      "--entries",
      "30000",
      "--folder",
      "src",
      "--tree",
    ],
    { cwd: root, env, stdio: "ignore" },
  );
  await call(first.origin, "POST", w("/files/folder"), { path: "dst" });
  const listing = await call(first.origin, "GET", w("/files?path=src&count=1000"));
  const folders: string[] = listing.json.items.map((i: { path: string }) => i.path);
  expect(folders).toHaveLength(30);
  const live = (db: Database.Database, range: string) =>
    db
      .prepare("SELECT count(*) FROM entries WHERE trash_id IS NULL AND path >= ? AND path < ?")
      .pluck()
      .get(`${range}/`, `${range}0`) as number;
  const before = (() => {
    const db = new Database(path.join(dataDir, "consign.db"), { readonly: true });
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
  let seen = job.json;
  while (seen.filesDone === 0)
    seen = (await call(first.origin, "GET", w(`/files/operations/${job.json.id}`))).json;
  await killed(first.child);
  expect(seen.status).toBe("running");
  expect(seen.filesDone).toBeLessThan(seen.filesTotal);

  // The lease a killed worker held lasts 60 s; let it run out instead of waiting.
  const db = new Database(path.join(dataDir, "consign.db"));
  db.prepare("UPDATE jobs SET lease_expires_at = 0 WHERE status = 'running'").run();
  db.close();

  const second = await startProcess(false);
  let end = seen;
  for (let i = 0; i < 600 && (end.status === "running" || end.status === "queued"); i++) {
    await new Promise((r) => setTimeout(r, 50));
    end = (await call(second.origin, "GET", w(`/files/operations/${job.json.id}`))).json;
  }
  expect(end).toMatchObject({ status: "completed", error: null });
  expect(end.filesDone).toBe(end.filesTotal);
  expect(end.bytesDone).toBe(end.bytesTotal);
  expect(end.items.every((i: { status: string }) => i.status === "done")).toBe(true);
  const check = new Database(path.join(dataDir, "consign.db"), { readonly: true });
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
  } finally {
    check.close();
  }
  await killed(second.child);
}, 120_000);
