import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-agent-restart-"));
const local = fs.mkdtempSync(path.join(os.tmpdir(), "consign-agent-restart-local-"));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(local, { recursive: true, force: true });
});

/** A free port, so the service comes back where the spec's node URL points. */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** The service (with its in-process node) as a process on the data dir; the first start's key. */
function startService(port: number, firstStart = false) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: "127.0.0.1",
      LOG_LEVEL: "warn",
      DEMO_CONTENT: "0",
      STATIC_DIR: path.join(dataDir, "none"),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  children.push(child);
  let out = "";
  return new Promise<{ child: ChildProcess; key?: string }>((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`service exited with ${code}: ${out}`)));
    child.stdout!.on("data", (d) => {
      out += String(d);
      const key = /#key=(svc_sk_\w+)/.exec(out)?.[1];
      if (/running at/.test(out) && (key || !firstStart)) resolve({ child, key });
    });
  });
}

const random = (n: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * 31 + 7) % 253));
const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

it("goes on by itself when the node is killed mid-upload and comes back: one commit, exact bytes", async () => {
  const port = await freePort();
  const first = await startService(port, true);
  const key = first.key!;
  const bytes = random(24 * 1024 * 1024);
  fs.mkdirSync(path.join(local, "reel"));
  fs.writeFileSync(path.join(local, "reel", "take.bin"), bytes);

  const agent = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/agent/main.ts",
      "send",
      path.join(local, "reel"),
      "--to",
      "Restart",
      "--json",
      "--limit-rate",
      "8M",
      "--state-dir",
      path.join(local, "state"),
    ],
    {
      cwd: root,
      env: { ...process.env, CONSIGN_URL: `http://127.0.0.1:${port}`, CONSIGN_KEY: key },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  children.push(agent);
  let stdout = "";
  let restarted: Promise<unknown> | null = null;
  agent.stdout!.on("data", (d) => {
    stdout += String(d);
    // Once the node holds part of the file (a chunk confirmed), it is killed and started again.
    if (!restarted && /"confirmed":[1-9]/.test(String(d))) {
      first.child.kill("SIGKILL");
      restarted = new Promise((r) => setTimeout(r, 1000)).then(() => startService(port));
    }
  });
  const code = await new Promise<number | null>((resolve) => agent.once("close", resolve));
  expect(restarted, stdout.slice(-3000)).not.toBeNull();
  await restarted;
  const events = stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(code, stdout.slice(-2000)).toBe(0);
  expect(events.at(-1)).toMatchObject({ event: "done", ok: true, status: "completed" });

  const db = new Database(path.join(dataDir, "consign.db"), { readonly: true });
  const entry = db
    .prepare("SELECT sha256, size FROM entries WHERE path = ? AND trash_id IS NULL")
    .get("Restart/reel/take.bin");
  const uploads = db
    .prepare("SELECT status FROM transfer_uploads WHERE path = ?")
    .all("Restart/reel/take.bin");
  db.close();
  expect(entry).toEqual({ sha256: sha(bytes), size: bytes.length });
  // Resumed at the node's offset: the one upload it created, committed once.
  expect(uploads).toEqual([{ status: "committed" }]);
}, 120_000);
