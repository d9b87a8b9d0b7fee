import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bootstrap } from "@/server/bootstrap";
import { createDeps } from "@/server/deps";
import { testConfig } from "@/server/env";
import { writePrivateFile } from "./private-files";

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "consign-modes-"));
});
afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

const mode = (p: string) => fs.statSync(p).mode & 0o777;
const DB_FILES = ["consign.db", "consign.db-wal", "consign.db-shm"];

/** Starts the service's dependencies on a data dir, writes, and reports the modes while open. */
function openAndWrite(dataDir: string) {
  const deps = createDeps(testConfig(dataDir));
  try {
    bootstrap(deps);
    return Object.fromEntries([".", ...DB_FILES].map((f) => [f, mode(path.join(dataDir, f))]));
  } finally {
    deps.db.close();
  }
}

describe("the data dir", () => {
  it("is created 0700, with the database and its WAL and shared-memory files 0600", () => {
    // Under the usual umask (022) the defaults would be 0755 and 0644.
    expect(openAndWrite(path.join(tmp, "data"))).toEqual({
      ".": 0o700,
      "consign.db": 0o600,
      "consign.db-wal": 0o600,
      "consign.db-shm": 0o600,
    });
  });

  it("is tightened at start-up when an older version left it readable to others", () => {
    const dataDir = path.join(tmp, "data");
    // A service of the older version, still running (its WAL and shared-memory files exist).
    const older = createDeps(testConfig(dataDir));
    try {
      bootstrap(older);
      // What it left: everything readable, a key file and a folder of blobs.
      fs.writeFileSync(path.join(dataDir, "webhook-secrets.key"), "old");
      fs.mkdirSync(path.join(dataDir, "blobs", "ab"), { recursive: true });
      for (const f of ["webhook-secrets.key", ...DB_FILES])
        fs.chmodSync(path.join(dataDir, f), 0o644);
      for (const d of [".", "blobs"]) fs.chmodSync(path.join(dataDir, d), 0o755);

      expect(openAndWrite(dataDir)).toEqual({
        ".": 0o700,
        "consign.db": 0o600,
        "consign.db-wal": 0o600,
        "consign.db-shm": 0o600,
      });
      expect(mode(path.join(dataDir, "webhook-secrets.key"))).toBe(0o600);
      expect(mode(path.join(dataDir, "blobs"))).toBe(0o700);
    } finally {
      older.db.close();
    }
  });
});

describe("writePrivateFile", () => {
  it("writes 0600 in a 0700 folder, tightens a file it overwrites, and refuses one that exists when exclusive", () => {
    const file = path.join(tmp, "keys", "a.key");
    writePrivateFile(file, "one");
    expect([mode(path.dirname(file)), mode(file)]).toEqual([0o700, 0o600]);

    fs.chmodSync(file, 0o644);
    writePrivateFile(file, "two");
    expect([fs.readFileSync(file, "utf8"), mode(file)]).toEqual(["two", 0o600]);

    expect(() => writePrivateFile(file, "three", { exclusive: true })).toThrow(
      expect.objectContaining({ code: "EEXIST" }),
    );
    expect(fs.readFileSync(file, "utf8")).toBe("two");
  });
});
