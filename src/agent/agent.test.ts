import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTempService } from "@/server/testing/temp-service";

const root = path.resolve(import.meta.dirname, "../..");

let service: Awaited<ReturnType<typeof startTempService>>["service"];
let dataDir: string;
let key: string;
let workspaceId: string;
let tmp: string;

beforeAll(async () => {
  const started = await startTempService("consign-agent-test-");
  service = started.service;
  dataDir = started.dir;
  key = started.boot.adminKey;
  workspaceId = started.boot.workspace.id;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "consign-agent-local-"));
});

afterAll(async () => {
  await service.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  // biome-ignore lint/suspicious/noExplicitAny: JSON lines as the agent printed them
  events: any[];
}

/** The agent's CLI as a person runs it, in its own process, with its own state dir. */
function agent(
  args: string[],
  opts: {
    stateDir?: string;
    onLine?: (event: Record<string, unknown>, child: ChildProcess) => void;
  } = {},
): Promise<Run> {
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      "src/agent/main.ts",
      ...args,
      "--state-dir",
      opts.stateDir ?? path.join(tmp, `state-${Math.random().toString(36).slice(2)}`),
    ],
    {
      cwd: root,
      env: { ...process.env, CONSIGN_URL: service.url, CONSIGN_KEY: key },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let stdout = "";
  let stderr = "";
  const events: Run["events"] = [];
  child.stdout!.on("data", (d) => {
    stdout += String(d);
  });
  child.stderr!.on("data", (d) => {
    stderr += String(d);
  });
  let parsed = 0;
  const parseLines = () => {
    const end = stdout.lastIndexOf("\n");
    if (end < parsed) return;
    for (const l of stdout.slice(parsed, end).split("\n")) {
      if (!l) continue;
      const event = JSON.parse(l);
      events.push(event);
      opts.onLine?.(event, child);
    }
    parsed = end + 1;
  };
  if (args.includes("--json")) child.stdout!.on("data", parseLines);
  return new Promise((resolve) => {
    child.once("close", (code) => resolve({ code, stdout, stderr, events }));
  });
}

const sha = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** The bytes the workspace holds at `p`, read from the data dir's blob store. */
async function workspaceBytes(p: string) {
  const entry = service.deps.files.get(workspaceId, p);
  const chunks: Buffer[] = [];
  for await (const c of service.deps.files.blobs.read(entry.sha256!)) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

function tree(base: string, files: Record<string, Buffer>) {
  for (const [rel, bytes] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(base, rel)), { recursive: true });
    fs.writeFileSync(path.join(base, rel), bytes);
  }
}

const random = (n: number) =>
  Buffer.from(Array.from({ length: n }, (_, i) => (i * 7919 + n) % 251));

describe("agent send", () => {
  it("sends a nested folder with an empty file and an empty folder; the workspace holds the exact bytes; --json parses", async () => {
    const files = {
      "a.txt": Buffer.from("hello\n"),
      "empty.bin": Buffer.alloc(0),
      "sub/b.bin": random(300_000),
      "sub/deeper/c.bin": random(9_000_001),
    };
    tree(path.join(tmp, "shots"), files);
    fs.mkdirSync(path.join(tmp, "shots", "sub", "nothing-yet"));
    const run = await agent(["send", path.join(tmp, "shots"), "--to", "/Projects/Reel/", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    const kinds = run.events.map((e) => e.event);
    expect(kinds[0]).toBe("start");
    expect(kinds.at(-1)).toBe("done");
    expect(run.events.filter((e) => e.event === "file")).toHaveLength(4);
    const done = run.events.at(-1);
    expect(done).toMatchObject({ ok: true, status: "completed", filesDone: 4, filesFailed: 0 });
    for (const [rel, bytes] of Object.entries(files)) {
      const got = await workspaceBytes(`Projects/Reel/shots/${rel}`);
      expect(sha(got), rel).toBe(sha(bytes));
    }
    expect(service.deps.files.get(workspaceId, "Projects/Reel/shots/sub/nothing-yet").is_file).toBe(
      0,
    );
    const record = await fetch(
      `${service.url}/v1/workspaces/${workspaceId}/transfers/${done.transferId}`,
      { headers: { Authorization: `Bearer ${key}` } },
    ).then((r) => r.json());
    expect(record).toMatchObject({
      status: "completed",
      client: "agent",
      direction: "send",
      filesDone: 4,
      filesTotal: 4,
      bytesDone: 9_300_007,
    });
  });

  it("exits 1 naming the file when the node refuses it (more bytes than the transfer declared)", async () => {
    tree(path.join(tmp, "refused"), { "big.bin": random(5000) });
    const res = await fetch(`${service.url}/v1/workspaces/${workspaceId}/transfers`, {
      method: "POST",
      headers: { Authorization: `Bearer ${key}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        direction: "send",
        paths: [{ source: path.join(tmp, "refused"), destination: "Refused" }],
        fileCount: 1,
        totalBytes: 100,
      }),
    });
    expect(res.status).toBe(201);
    const specFile = path.join(tmp, "refused-spec.json");
    fs.writeFileSync(specFile, JSON.stringify(await res.json()));
    const run = await agent(["run", specFile]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Refused/big.bin");
    expect(run.stderr).toMatch(/totalBytes/);
    expect(() => service.deps.files.get(workspaceId, "Refused/big.bin")).toThrow();
  });

  it("resumes after kill -9: finished files are not sent again, the partial one goes on by tus", async () => {
    const files = { "first.txt": Buffer.from("first"), "z-large.bin": random(24 * 1024 * 1024) };
    tree(path.join(tmp, "killed"), files);
    const stateDir = path.join(tmp, "state-killed");
    const args = ["send", path.join(tmp, "killed"), "--to", "Resumed", "--json", "--streams", "1"];
    let killedAt = 0;
    const first = await agent([...args, "--limit-rate", "6M"], {
      stateDir,
      onLine: (event, child) => {
        // Killed once the node holds part of the large file (a chunk confirmed), not all.
        const active = (event.active ?? []) as { path: string; confirmed: number; size: number }[];
        const large = active.find((a) => a.path === "Resumed/killed/z-large.bin");
        if (!killedAt && large && large.confirmed > 0 && large.confirmed < large.size) {
          killedAt = large.confirmed;
          child.kill("SIGKILL");
        }
      },
    });
    expect(first.code).toBe(null);
    expect(killedAt).toBeGreaterThan(0);
    const transferId = first.events[0].transferId;

    const second = await agent(args, { stateDir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.events[0]).toMatchObject({ event: "start", transferId, resumed: true });
    const fileEvents = second.events.filter((e) => e.event === "file");
    expect(fileEvents.find((e) => e.path === "Resumed/killed/first.txt")).toMatchObject({
      skipped: true,
    });
    for (const [rel, bytes] of Object.entries(files))
      expect(sha(await workspaceBytes(`Resumed/killed/${rel}`)), rel).toBe(sha(bytes));
    // One upload per file: the large one was resumed, not created again; one version each.
    const uploads = service.deps.db
      .prepare("SELECT path, status FROM transfer_uploads WHERE transfer_id = ? ORDER BY path")
      .all(transferId);
    expect(uploads).toEqual([
      { path: "Resumed/killed/first.txt", status: "committed" },
      { path: "Resumed/killed/z-large.bin", status: "committed" },
    ]);
    expect(service.deps.files.get(workspaceId, "Resumed/killed/z-large.bin").version_count).toBe(0);
  });
});

describe("agent receive", () => {
  it("receives a folder to a local folder with the same bytes", async () => {
    const files = {
      "one.txt": Buffer.from("one"),
      empty: Buffer.alloc(0),
      "deep/two.bin": random(2_000_000),
    };
    for (const [rel, bytes] of Object.entries(files))
      await service.deps.files.writeFile(workspaceId, `Outgoing/${rel}`, bytes);
    const to = path.join(tmp, "received");
    const run = await agent(["receive", "Outgoing", "Outgoing/one.txt", "--to", to]);
    expect(run.code, run.stderr).toBe(0);
    for (const [rel, bytes] of Object.entries(files))
      expect(sha(fs.readFileSync(path.join(to, "Outgoing", rel))), rel).toBe(sha(bytes));
    expect(fs.readFileSync(path.join(to, "one.txt"), "utf8")).toBe("one");
    expect(fs.readdirSync(path.join(to, "Outgoing", "deep"))).toEqual(["two.bin"]);
  });

  it("resumes after kill -9 from the partial local file with Range, and checks the whole hash", async () => {
    const bytes = random(12_000_000);
    await service.deps.files.writeFile(workspaceId, "Partial/clip.bin", bytes);
    const to = path.join(tmp, "partial");
    const stateDir = path.join(tmp, "state-partial");
    const args = ["receive", "Partial/clip.bin", "--to", to, "--json"];
    let killed = false;
    const first = await agent([...args, "--limit-rate", "4M"], {
      stateDir,
      onLine: (event, child) => {
        const active = (event.active ?? []) as { bytes: number }[];
        if (!killed && active[0] && active[0].bytes > 0) {
          killed = true;
          child.kill("SIGKILL");
        }
      },
    });
    expect(first.code).toBe(null);
    const partial = fs.statSync(path.join(to, "clip.bin.part")).size;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(bytes.length);

    const second = await agent(args, { stateDir });
    expect(second.code, second.stderr).toBe(0);
    expect(second.events.find((e) => e.event === "file")).toMatchObject({
      ok: true,
      resumedFrom: partial,
    });
    expect(sha(fs.readFileSync(path.join(to, "clip.bin")))).toBe(sha(bytes));
    expect(fs.existsSync(path.join(to, "clip.bin.part"))).toBe(false);
  });
});

describe("agent options", () => {
  it("content protection: sent with a password, received only with it", async () => {
    const bytes = random(70_000);
    tree(path.join(tmp, "sealed"), { "s.bin": bytes });
    const password = ["--password", "correct horse battery"];
    const sent = await agent(["send", path.join(tmp, "sealed"), "--to", "Sealed", ...password]);
    expect(sent.code, sent.stderr).toBe(0);
    const without = await agent(["receive", "Sealed/sealed", "--to", path.join(tmp, "sealed-1")]);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("Sealed/sealed/s.bin");
    const wrong = await agent([
      "receive",
      "Sealed/sealed",
      "--to",
      path.join(tmp, "sealed-2"),
      "--password",
      "wrong horse battery",
    ]);
    expect(wrong.code).toBe(1);
    const right = await agent([
      "receive",
      "Sealed/sealed",
      "--to",
      path.join(tmp, "sealed-3"),
      ...password,
    ]);
    expect(right.code, right.stderr).toBe(0);
    expect(sha(fs.readFileSync(path.join(tmp, "sealed-3", "sealed", "s.bin")))).toBe(sha(bytes));
  });

  it("--growing-file-wait sends a file still being written only once it stopped growing", async () => {
    const file = path.join(tmp, "growing", "render.mov");
    tree(path.join(tmp, "growing"), { "render.mov": Buffer.from("frame 1\n") });
    const writer = setInterval(() => fs.appendFileSync(file, "another frame\n"), 300);
    setTimeout(() => clearInterval(writer), 2000);
    const run = await agent([
      "send",
      path.join(tmp, "growing"),
      "--to",
      "Growing",
      "--growing-file-wait",
      "1",
    ]);
    expect(run.code, run.stderr).toBe(0);
    const final = fs.readFileSync(file);
    expect(final.toString()).toContain("another frame");
    expect(sha(await workspaceBytes("Growing/growing/render.mov"))).toBe(sha(final));
  });
});

describe("agent usage", () => {
  it("prints help (0) and refuses bad usage (2)", async () => {
    const help = await agent(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("npm run agent -- send");
    const noTo = await agent(["send", tmp]);
    expect(noTo.code).toBe(2);
    expect(noTo.stderr).toContain("--to");
    const missing = await agent(["send", path.join(tmp, "nothing-here"), "--to", "X"]);
    expect(missing.code).toBe(2);
    const badStreams = await agent(["send", tmp, "--to", "X", "--streams", "0"]);
    expect(badStreams.code).toBe(2);
    tree(path.join(tmp, "twice"), { "a/x.txt": Buffer.from("a"), "b/x.txt": Buffer.from("b") });
    const clash = await agent([
      "send",
      path.join(tmp, "twice/a/x.txt"),
      path.join(tmp, "twice/b/x.txt"),
      "--to",
      "X",
    ]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain("X/x.txt");
  });
});
