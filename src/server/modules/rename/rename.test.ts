import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { eventDataSchemas } from "@/contract/events";
import type { RenameBatchBody } from "@/contract/operations";
import type { ManualClock } from "@/server/lib/clock";
import { eventsRouter } from "@/server/modules/events/events.index";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { expectError, okBody, refusal } from "@/server/testing/expect-body";
import { filesClient, folderNames, writeFile } from "@/server/testing/files-client";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { insert } from "../files/files.repository";
import { renameRouter } from "./rename.index";
import { RENAME_EXPANDED_MAX } from "./rename.service";

let t: TestApp;
let clock: ManualClock;

testAppEach((app, c) => {
  t = app;
  clock = c;
});

const write = (p: string, content?: string) => writeFile(t, p, content);
const post = (body: RenameBatchBody, key?: string) =>
  t
    .client(renameRouter, { key })
    .workspaces[":workspaceId"].files["rename-batch"].$post({ param: t.ws, json: body });
const plan = async (body: RenameBatchBody) => okBody(await post({ ...body, dryRun: true }));
const apply = async (body: RenameBatchBody) => okBody(await post({ ...body, dryRun: false }));
const names = (p = "") => folderNames(t, p);
const content = (p: string) => {
  const entry = t.deps.files.get(t.workspaceId, p);
  return fs.readFileSync(diskBlobs(t.deps.files).pathOf(entry.sha256!), "utf8");
};

async function fileEvents() {
  const stream = t.client(eventsRouter).workspaces[":workspaceId"].events;
  const page = await okBody(await stream.$get({ param: t.ws, query: { limit: "1000" } }));
  return page.events.filter((e) => e.type === "file.renamed").map((e) => e.data);
}

describe("bounds", () => {
  const refused = async (body: unknown, field: string) => {
    const r = await expectError(await post(body as RenameBatchBody), 400);
    expect(r.code).toBe("validation_failed");
    expect(r.issues.map((i) => i.field)).toContain(field);
  };

  it("refuses every member past its bound, and takes each at its bound", async () => {
    await write("a.txt");
    const paths = ["a.txt"];
    await refused({ paths: [], pattern: {} }, "paths");
    await refused({ paths: Array.from({ length: 201 }, (_, i) => `f${i}`), pattern: {} }, "paths");
    await refused({ paths, pattern: { find: "x".repeat(256) } }, "pattern.find");
    await refused({ paths, pattern: { replace: "x".repeat(256) } }, "pattern.replace");
    await refused({ paths, pattern: { prefix: "x".repeat(121) } }, "pattern.prefix");
    await refused({ paths, pattern: { suffix: "x".repeat(121) } }, "pattern.suffix");
    for (const [member, value] of [
      ["separator", "x".repeat(9)],
      ["start", -1],
      ["start", 1_000_000],
      ["step", 0],
      ["step", 1001],
      ["padding", 0],
      ["padding", 9],
      ["position", "middle"],
    ] as const) {
      await refused(
        { paths, pattern: { numbering: { [member]: value } } },
        `pattern.numbering.${member}`,
      );
    }
    const atBounds = await plan({
      paths,
      pattern: {
        find: "y".repeat(255),
        replace: "z".repeat(255),
        prefix: "p".repeat(120),
        suffix: "s".repeat(120),
        numbering: { start: 999_999, step: 1000, padding: 8, separator: "-".repeat(8) },
      },
    });
    expect(atBounds.steps[0]!.newName).toBe(
      `${"p".repeat(120)}a${"-".repeat(8)}00999999${"s".repeat(120)}.txt`,
    );
    const most = Array.from({ length: 200 }, (_, i) => `f${i}`);
    for (const p of most) await write(p);
    expect((await plan({ paths: most, pattern: { suffix: "x" } })).expanded).toBe(200);
  });

  it("answers 404 for an unknown path and 400 for a path inside another of the batch", async () => {
    await write("d/a.txt");
    const missing = await expectError(await post({ paths: ["d/nope"], pattern: {} }), 404);
    expect(missing.details).toEqual({ path: "d/nope" });
    const nested = await expectError(await post({ paths: ["d", "d/a.txt"], pattern: {} }), 400);
    expect(nested.issues[0]).toMatchObject({ field: "paths", code: "nested_paths" });
  });

  it("refuses a batch whose numbered sets take more than the most items a plan covers", async () => {
    const folder = t.deps.files.ensureFolder(t.workspaceId, "frames", clock.now());
    t.deps.db.transaction(() => {
      for (let i = 0; i <= RENAME_EXPANDED_MAX; i++) {
        const name = `f.${String(i).padStart(5, "0")}.exr`;
        insert(t.deps.db, folder, name, { size: 1, mime: "x/y", sha256: "0".repeat(64) }, 0);
      }
    })();
    const body = { paths: ["frames/f.00001.exr"], pattern: { suffix: "x" }, dryRun: true };
    const r = await expectError(await post(body), 400);
    expect(r.issues[0]).toMatchObject({ field: "paths", code: "too_many_items" });
    expect((await plan({ ...body, expandSequences: false })).expanded).toBe(1);
  });

  it("needs files:write", async () => {
    await write("a.txt");
    const body = { paths: ["a.txt"], pattern: { suffix: "x" }, dryRun: true };
    expect((await post(body, t.keyWith(["files:read"]))).status).toBe(403);
    expect((await post(body, t.keyWith(["files:write"]))).status).toBe(200);
  });
});

describe("a dry run and its apply", () => {
  it("plans without changing anything, and its apply gives the same result", async () => {
    for (const n of ["take10.mov", "take2.mov", "Take1.mov"]) await write(`dailies/${n}`);
    await t.deps.files.createFolder(t.workspaceId, "dailies/sub");
    const body: RenameBatchBody = {
      paths: ["dailies/take10.mov", "dailies/take2.mov", "dailies/Take1.mov", "dailies/sub"],
      pattern: { find: "take", replace: "shot", ignoreCase: true, numbering: { padding: 2 } },
    };
    const dry = await plan(body);
    expect(dry).toMatchObject({ dryRun: true, expanded: 4, changed: 4, applied: [], failed: null });
    expect(dry.planId).toMatch(/^[0-9a-f]{64}$/);
    expect(dry.steps.map((s) => [s.from, s.to])).toEqual([
      ["dailies/sub", "dailies/sub_01"],
      ["dailies/Take1.mov", "dailies/shot1_02.mov"],
      ["dailies/take2.mov", "dailies/shot2_03.mov"],
      ["dailies/take10.mov", "dailies/shot10_04.mov"],
    ]);
    expect(dry.steps[0]).toMatchObject({ type: "folder", unchanged: false, conflict: null });
    expect(await names("dailies")).toEqual(["sub", "Take1.mov", "take2.mov", "take10.mov"]);
    expect(await fileEvents()).toEqual([]);

    const done = await apply({ ...body, planId: dry.planId as string });
    expect(done).toEqual({ ...dry, dryRun: false, applied: dry.steps });
    expect(await names("dailies")).toEqual([
      "sub_01",
      "shot1_02.mov",
      "shot2_03.mov",
      "shot10_04.mov",
    ]);
    expect(content("dailies/shot10_04.mov")).toBe("dailies/take10.mov");
  });

  it("refuses an apply whose plan is stale (plan_stale) and changes nothing", async () => {
    await write("a.txt");
    await write("b.txt");
    const body: RenameBatchBody = { paths: ["a.txt"], pattern: { prefix: "x-" } };
    const { planId } = await plan(body);

    await write("c.txt"); // A sibling added.
    const stale = await expectError(await post({ ...body, planId: planId as string }), 400);
    expect(stale.code).toBe("validation_failed");
    expect(stale.issues[0]).toMatchObject({ field: "planId", code: "plan_stale" });
    expect(stale.details).toMatchObject({ planId, currentPlanId: expect.any(String) });
    expect(stale.details.currentPlanId).not.toBe(planId);
    expect(await names()).toEqual(["a.txt", "b.txt", "c.txt"]);

    const fresh = (await plan(body)).planId as string;
    await t.deps.files.rename(t.workspaceId, "b.txt", "B.txt"); // A sibling renamed.
    expect((await refusal(await post({ ...body, planId: fresh }))).issues[0]?.code).toBe(
      "plan_stale",
    );
    // Another request is another plan, too.
    const other = await post({ ...body, pattern: { prefix: "y-" }, planId: fresh });
    expect(other.status).toBe(400);
    expect(await names()).toEqual(["a.txt", "B.txt", "c.txt"]);
    expect(await fileEvents()).toHaveLength(1); // The single rename's, only.
  });

  it("applies without a planId: plans and runs", async () => {
    await write("a.txt");
    const done = await apply({ paths: ["a.txt"], pattern: { suffix: "_v2" } });
    expect(done).toMatchObject({ dryRun: false, changed: 1, failed: null });
    expect(done.applied).toEqual([expect.objectContaining({ from: "a.txt", to: "a_v2.txt" })]);
    expect(await names()).toEqual(["a_v2.txt"]);
  });

  it("records one file.renamed event for the batch", async () => {
    for (const n of ["a.txt", "b.txt", "c.txt"]) await write(n);
    await apply({ paths: ["a.txt", "b.txt", "c.txt"], pattern: { find: "b", replace: "b" } });
    expect(await fileEvents()).toEqual([]); // Nothing changed: no event.
    await apply({
      paths: ["a.txt", "b.txt", "c.txt"],
      pattern: { find: "[ab]", replace: "z$&", regex: true },
    });
    const events = await fileEvents();
    expect(events).toEqual([
      {
        paths: ["za.txt", "zb.txt"],
        renames: [
          { from: "a.txt", to: "za.txt" },
          { from: "b.txt", to: "zb.txt" },
        ],
        count: 2,
      },
    ]);
    // The batch form is one of the event's documented shapes; the single rename's still is.
    const schema = eventDataSchemas["file.renamed"];
    expect(schema.safeParse(events[0]).success).toBe(true);
    expect(schema.safeParse({ paths: ["b"], from: "a", to: "b" }).success).toBe(true);
  });
});

describe("applying", () => {
  it("swaps two names, each folder's subtree going along, and runs chains", async () => {
    await write("a.b/inner.txt", "in a.b");
    await write("b.a/inner.txt", "in b.a");
    await write("a.b/deep/er.txt", "deep in a.b");
    const swap = await apply({
      paths: ["a.b", "b.a"],
      pattern: { find: "^(\\w)\\.(\\w)$", replace: "$2.$1", regex: true },
    });
    expect(swap.failed).toBeNull();
    expect(swap.applied.map((s) => [s.from, s.to])).toEqual([
      ["a.b", "b.a"],
      ["b.a", "a.b"],
    ]);
    expect(content("b.a/inner.txt")).toBe("in a.b");
    expect(content("b.a/deep/er.txt")).toBe("deep in a.b");
    expect(content("a.b/inner.txt")).toBe("in b.a");
    expect(await names()).toEqual(["a.b", "b.a"]);
    expect(await names("b.a")).toEqual(["deep", "inner.txt"]);

    for (const n of ["1", "2", "3"]) await write(`chain/${n}`, `was ${n}`);
    await apply({
      paths: ["chain/1", "chain/2", "chain/3"],
      pattern: { numbering: { position: "replace", start: 2, padding: 1 } },
    });
    expect(await names("chain")).toEqual(["2", "3", "4"]);
    expect(content("chain/4")).toBe("was 3");
    expect(content("chain/2")).toBe("was 1");
  });

  it("refuses an apply with conflicts: nothing renamed, the first conflict in failed", async () => {
    for (const n of ["a.txt", "b.txt", "x1.txt", "x2.txt"]) await write(n);
    await t.deps.files.createFolder(t.workspaceId, "c.txt");
    const done = await apply({
      paths: ["a.txt", "x1.txt", "x2.txt", "b.txt"],
      pattern: { find: "^a$|\\d", replace: "c", regex: true },
    });
    expect(done.applied).toEqual([]);
    expect(done.conflicts).toEqual([
      expect.objectContaining({
        from: "a.txt",
        to: "c.txt",
        reason: "exists",
        existingType: "folder",
      }),
      expect.objectContaining({ from: "x1.txt", to: "xc.txt", reason: "duplicate_in_plan" }),
      expect.objectContaining({ from: "x2.txt", to: "xc.txt", reason: "duplicate_in_plan" }),
    ]);
    expect(done.failed).toMatchObject({ from: "a.txt", to: "c.txt", code: "conflict" });
    expect(await names()).toEqual(["c.txt", "a.txt", "b.txt", "x1.txt", "x2.txt"]);
    expect(await fileEvents()).toEqual([]);

    const invalid = await apply({ paths: ["a.txt"], pattern: { find: "a", replace: "/" } });
    expect(invalid.conflicts).toEqual([
      expect.objectContaining({ from: "a.txt", to: "/.txt", reason: "invalid_name" }),
    ]);
    expect(invalid.failed).toMatchObject({ code: "conflict" });
  });

  it("with overwrite, replaces a file and keeps its content as a version; folders still conflict", async () => {
    await write("new.txt", "new v1");
    await write("new.txt", "new v2");
    await write("old.txt", "old");
    await t.deps.files.createFolder(t.workspaceId, "new.dir");
    await write("new/x", "x");
    const body: RenameBatchBody = {
      paths: ["new.txt"],
      pattern: { find: "new", replace: "old" },
      overwrite: true,
    };
    const dry = await plan(body);
    expect(dry.conflicts).toEqual([]);
    expect(dry.steps[0]).toMatchObject({ to: "old.txt", overwrite: true });
    const done = await apply({ ...body, planId: dry.planId as string });
    expect(done.failed).toBeNull();
    expect(await names()).toEqual(["new", "new.dir", "old.txt"]);
    expect(content("old.txt")).toBe("new v2");
    const versions = await okBody(
      await filesClient(t).versions.$get({ param: t.ws, query: { path: "old.txt" } }),
    );
    const kept = versions.map((v) => {
      const bytes = fs.readFileSync(diskBlobs(t.deps.files).pathOf(v.sha256), "utf8");
      return bytes;
    });
    expect(kept.sort()).toEqual(["new v1", "old"]);

    const folder = await apply({
      paths: ["new"],
      pattern: { suffix: ".dir" },
      overwrite: true,
    });
    expect(folder.conflicts).toEqual([
      expect.objectContaining({ from: "new", reason: "exists", existingType: "folder" }),
    ]);
    expect(await names()).toEqual(["new", "new.dir", "old.txt"]);
  });

  it("takes a selected frame's whole numbered set, unless expandSequences is false", async () => {
    for (let i = 1; i <= 5; i++) await write(`plates/shot.${String(i).padStart(4, "0")}.exr`);
    for (const n of ["shot.001.exr", "shot.0001.dpx", "Shot.0002.exr", "other.0001.exr"])
      await write(`plates/${n}`);
    await write("elsewhere/shot.0009.exr");
    const body: RenameBatchBody = {
      paths: ["plates/shot.0003.exr"],
      pattern: { find: "shot", replace: "sh010" },
    };
    const whole = await plan(body);
    expect(whole.expanded).toBe(5);
    expect(whole.steps.map((s) => s.newName)).toEqual(
      [1, 2, 3, 4, 5].map((i) => `sh010.000${i}.exr`),
    );
    const one = await plan({ ...body, expandSequences: false });
    expect(one.expanded).toBe(1);
    expect(one.steps.map((s) => s.from)).toEqual(["plates/shot.0003.exr"]);
    await apply(body);
    expect(await names("plates")).toEqual([
      "other.0001.exr",
      "sh010.0001.exr",
      "sh010.0002.exr",
      "sh010.0003.exr",
      "sh010.0004.exr",
      "sh010.0005.exr",
      "shot.0001.dpx",
      "shot.001.exr",
      "Shot.0002.exr",
    ]);
  });
});

describe("regular expressions", () => {
  it("refuses a pattern RE2 cannot take with a 400 on pattern.find", async () => {
    await write("a.txt");
    for (const find of ["(unclosed", "(a)\\1", "a(?=b)"]) {
      const r = await expectError(
        await post({ paths: ["a.txt"], pattern: { find, regex: true }, dryRun: true }),
        400,
      );
      expect(r.code).toBe("validation_failed");
      expect(r.issues[0]).toMatchObject({ field: "pattern.find", code: "invalid_regex" });
      expect(r.message).toMatch(/RE2 syntax/);
    }
  });

  it("cannot be stalled by a catastrophic pattern over 200 names of 255 characters", async () => {
    const folder = t.deps.files.ensureFolder(t.workspaceId, "evil", clock.now());
    const paths: string[] = [];
    t.deps.db.transaction(() => {
      for (let i = 0; i < 200; i++) {
        const name = `${"a".repeat(251)}b${String(i).padStart(3, "0")}`;
        insert(t.deps.db, folder, name, { size: 1, mime: "x/y", sha256: "0".repeat(64) }, 0);
        paths.push(`evil/${name}`);
      }
    })();
    const result = await plan({
      paths,
      pattern: { find: "(a+)+$", replace: "X", regex: true, includeExtension: true },
    });
    expect(result).toMatchObject({ expanded: 200, changed: 0, conflicts: [] });
    const hit = await plan({
      paths,
      pattern: { find: "(a+)+b", replace: "X", regex: true, includeExtension: true },
    });
    expect(hit.changed).toBe(200);
    expect(hit.steps[0]!.newName).toBe("X000");
  });
});
