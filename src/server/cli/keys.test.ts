import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { bootstrap } from "@/server/bootstrap";
import { createDeps } from "@/server/deps";
import { testConfig } from "@/server/env";
import { authenticateKey, createKey, listKeys } from "@/server/modules/auth/keys.repository";
import { addMember, removeMember } from "@/server/modules/members/members.repository";

const root = path.resolve(import.meta.dirname, "../../..");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function freshDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-cli-"));
  dirs.push(dir);
  return dir;
}

/** Runs `npm run keys -- <args>` the way a person does, on the given data dir. */
function keys(dataDir: string, args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "src/server/cli/keys.ts", ...args],
      { cwd: root, env: { ...process.env, DATA_DIR: dataDir, DEMO_CONTENT: "0" } },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code) : 0, stdout, stderr }),
    );
  });
}

describe("keys CLI", () => {
  it("creates a key on a data dir the service never started on, printing only the JSON", async () => {
    const dir = freshDir();
    const res = await keys(dir, [
      "create",
      "--scopes",
      "files:read,files:write",
      "--expires",
      "2099-01-01T00:00:00Z",
      "--json",
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout.endsWith("\n")).toBe(true);
    const printed = JSON.parse(res.stdout);
    expect(Object.keys(printed)).toEqual(["id", "key", "workspaceId", "scopes", "expiresAt"]);
    expect(printed).toMatchObject({
      scopes: ["files:read", "files:write"],
      expiresAt: "2099-01-01T00:00:00.000Z",
    });

    const deps = createDeps(testConfig(dir));
    try {
      const auth = authenticateKey(deps.db, printed.key, Date.now());
      expect(auth).toMatchObject({ ok: true, key: { id: printed.id } });
      expect(bootstrap(deps)).toMatchObject({
        created: false,
        workspace: { id: printed.workspaceId },
      });
      // The first start's admin key was never shown to anyone, so it must not work.
      const others = listKeys(deps.db, printed.workspaceId).filter((k) => k.id !== printed.id);
      expect(others.map((k) => k.revokedAt !== null)).toEqual([true]);
    } finally {
      deps.db.close();
    }
  });

  it("says which workspace and data dir it wrote the key to", async () => {
    const dir = freshDir();
    const res = await keys(dir, ["create", "--scopes", "all"]);
    expect(res.code).toBe(0);
    const deps = createDeps(testConfig(dir));
    try {
      const ws = bootstrap(deps).workspace;
      expect(res.stdout).toContain(`workspace "${ws.name}" (id ${ws.id})`);
      expect(res.stdout).toContain(`data dir ${dir}`);
      const listed = await keys(dir, ["list"]);
      expect(listed.stdout).toContain(`data dir ${dir}`);
    } finally {
      deps.db.close();
    }
  });

  it("refuses an --expires that is not ISO 8601, creating nothing", async () => {
    const dir = freshDir();
    const res = await keys(dir, [
      "create",
      "--scopes",
      "all",
      "--expires",
      "July 1 2099",
      "--json",
    ]);
    expect(res).toMatchObject({ code: 1, stdout: "" });
    expect(res.stderr).toMatch(/--expires must be an ISO 8601 date or date-time/);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it("lists a key whose creator was removed as creator_removed", async () => {
    const dir = freshDir();
    const deps = createDeps(testConfig(dir));
    let ids: { active: string; orphaned: string; expired: string };
    try {
      const boot = bootstrap(deps);
      const workspaceId = boot.workspace.id;
      const now = Date.now();
      const ed = addMember(
        deps.db,
        deps.events,
        { workspaceId, email: "ed@example.com", name: "Ed", role: "admin" },
        now,
      );
      const admin = listKeys(deps.db, workspaceId)[0]!;
      const make = (memberId: string, expiresAt: number | null) =>
        createKey(deps.db, { workspaceId, memberId, scopes: ["files:read"], expiresAt }, now).record
          .id;
      ids = {
        active: admin.id,
        orphaned: make(ed.id, null),
        // Expired and orphaned: a request is told "expired" first.
        expired: make(ed.id, now - 1),
      };
      removeMember(deps.db, deps.events, ed, now);
    } finally {
      deps.db.close();
    }

    const res = await keys(dir, ["list", "--json"]);
    expect(res.code).toBe(0);
    const statuses = Object.fromEntries(
      (JSON.parse(res.stdout) as { id: string; status: string }[]).map((k) => [k.id, k.status]),
    );
    expect(statuses).toEqual({
      [ids.active]: "active",
      [ids.orphaned]: "creator_removed",
      [ids.expired]: "expired",
    });
  });
});
