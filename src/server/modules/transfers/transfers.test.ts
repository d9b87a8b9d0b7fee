import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  type CreateTransferBody,
  TRANSFER_START_WINDOW_SECONDS,
  type TransferState,
  terminalTransferStates,
  transferMoves,
  transferSpecSchema,
  transferStates,
  type UpdateTransferBody,
} from "@/contract/transfers";
import type { ManualClock } from "@/server/lib/clock";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { folderNames, writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp, testAppEach } from "@/server/testing/test-app";
import { grantFor as grantOf, withinGrant } from "./transfer-access";
import { readTransferToken, tokenVerifier } from "./transfer-token";
import { transfersRouter } from "./transfers.index";
import { recordCommittedFile } from "./transfers.repository";

let t: TestApp;
let clock: ManualClock;

testAppEach((app, c) => {
  t = app;
  clock = c;
});

/** The node's check of a token: offline, then against the transfer's row. */
const grantFor = (token: string) =>
  grantOf(
    t.deps.db,
    readTransferToken(tokenVerifier(t.deps.config), token, clock.now()),
    clock.now(),
  );

const api = (key?: string) =>
  t.client(transfersRouter, { key }).workspaces[":workspaceId"].transfers;
const create = (json: CreateTransferBody, key?: string) => api(key).$post({ param: t.ws, json });
const start = async (json: CreateTransferBody) => expectBody(await create(json), 201);
const patch = (transferId: string, json: UpdateTransferBody, key?: string) =>
  api(key)[":transferId"].$patch({ param: { ...t.ws, transferId }, json });
const get = async (transferId: string) =>
  okBody(await api()[":transferId"].$get({ param: { ...t.ws, transferId } }));
const send = (over: Partial<CreateTransferBody> = {}) =>
  start({
    direction: "send",
    paths: [{ source: "/home/ana/shoot", destination: "Shoot" }],
    destinationRoot: "Projects",
    ...over,
  });
const receive = async (over: Partial<CreateTransferBody> = {}) => {
  await writeFile(t, "Outgoing/cut.mov", "0123456789");
  return start({
    direction: "receive",
    paths: [{ source: "Outgoing/cut.mov", destination: "/tmp/cut.mov" }],
    ...over,
  });
};
const progress = (status: TransferState, over: Partial<UpdateTransferBody> = {}) => ({
  status,
  bytesDone: 0,
  filesDone: 0,
  ...over,
});
const events = (type: string) =>
  (
    t.deps.db
      .prepare("SELECT data FROM events WHERE type = ? ORDER BY seq")
      .pluck()
      .all(type) as string[]
  ).map((d) => JSON.parse(d));
/** The node's tus upload row for one file of a send, as the node writes it. */
const nodeUpload = (transferId: string, p: string, status: "uploading" | "committed") =>
  t.deps.db
    .prepare(
      `INSERT INTO transfer_uploads (id, transfer_id, workspace_id, path, size, status, created_at, updated_at, expires_at)
       VALUES (?, ?, ?, ?, 10, ?, ?, ?, ?)`,
    )
    .run(`up_${p}`, transferId, t.workspaceId, p, status, clock.now(), clock.now(), clock.now());
const uploadStatus = (p: string) =>
  t.deps.db.prepare("SELECT status FROM transfer_uploads WHERE id = ?").pluck().get(`up_${p}`);
/** The node commits a file: the entry, its upload row and the transfer's counters. */
async function nodeCommits(transferId: string, p: string, content = p) {
  await writeFile(t, p, content);
  nodeUpload(transferId, p, "committed");
  recordCommittedFile(t.deps.db, transferId, Buffer.byteLength(content));
}
const serve = (transferId: string, bytes: number) =>
  t.deps.db
    .prepare("UPDATE transfers SET bytes_served = bytes_served + ? WHERE id = ?")
    .run(bytes, transferId);

describe("create", () => {
  it("stores a queued send and returns a spec that validates, with the node's and progress URLs", async () => {
    const created = await send({
      fileCount: 2,
      totalBytes: 20,
      streams: 8,
      priority: "deadline",
      growingFileWaitSeconds: 30,
      contentProtectionPassword: "correct horse battery",
      deliverTo: ["Review"],
      rawAscp: true,
      client: "web",
      deviceId: "dev-1",
    });
    const spec = transferSpecSchema.parse(created.transferSpec);
    const base = "http://consign.test";
    expect(spec).toMatchObject({
      version: 1,
      transferId: created.transferId,
      direction: "send",
      client: "web",
      engine: "tus/1.0.0",
      node: {
        url: `${base}/node/v1`,
        uploads: `${base}/node/v1/uploads`,
        files: `${base}/node/v1/files`,
        zip: `${base}/node/v1/zip`,
      },
      progress: {
        url: `${base}/v1/workspaces/${t.workspaceId}/transfers/${created.transferId}`,
        minIntervalMs: 1000,
      },
      paths: [{ source: "/home/ana/shoot", destination: "Shoot" }],
      destinationRoot: "Projects",
      sourceRoot: "",
      fileCount: 2,
      totalBytes: 20,
      streams: 8,
      priority: "deadline",
      growingFileWaitSeconds: 30,
      deliverTo: ["Review"],
      contentProtection: true,
      chunkSizeBytes: 8 * 1024 * 1024,
    });
    expect(spec.token).toMatch(/^ctt_[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$/);
    const expiry = new Date(clock.now() + TRANSFER_START_WINDOW_SECONDS * 1000).toISOString();
    expect(created.expiresAt).toBe(expiry);
    expect(spec.expiresAt).toBe(expiry);

    const record = await get(created.transferId);
    expect(record).toMatchObject({
      status: "queued",
      direction: "send",
      client: "web",
      engine: "tus/1.0.0",
      streams: 8,
      priority: "deadline",
      filesTotal: 2,
      bytesTotal: 20,
      filesDone: 0,
      bytesDone: 0,
      avgRateKbps: null,
      startedAt: null,
      finishedAt: null,
      contentProtected: true,
      deliverTo: ["Review"],
      deviceId: "dev-1",
      pathsCount: 1,
    });
    expect(record.usageId).toMatch(/^usg_/);
    const row = t.deps.db
      .prepare("SELECT options, protection_salt FROM transfers WHERE id = ?")
      .get(created.transferId) as { options: string; protection_salt: string };
    expect(JSON.parse(row.options)).toEqual({ rawAscp: true, speedMode: null });
    expect(row.protection_salt).toMatch(/^[0-9a-f]{32}$/);
  });

  it("keeps neither the token nor the protection password in the database, only the token's hash", async () => {
    const created = await send({ contentProtectionPassword: "correct horse battery" });
    t.deps.db.pragma("wal_checkpoint(TRUNCATE)");
    for (const file of fs.readdirSync(t.dir).filter((f) => f.startsWith("consign.db"))) {
      const bytes = fs.readFileSync(path.join(t.dir, file));
      expect(bytes.includes(created.transferSpec.token)).toBe(false);
      expect(bytes.includes("correct horse battery")).toBe(false);
    }
    expect(grantFor(created.transferSpec.token).transfer.id).toBe(created.transferId);
  });

  it("takes progress at the spec's progress URL, with an API key", async () => {
    const { transferSpec, transferId } = await send();
    const res = await t.app.request(transferSpec.progress.url, {
      method: "PATCH",
      headers: { Authorization: `Bearer ${t.adminKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(progress("running")),
    });
    expect(res.status).toBe(200);
    expect((await get(transferId)).status).toBe("running");
  });

  it("shows the bytes the node recorded against the usage id", async () => {
    const { transferId } = await send();
    const { usageId } = await get(transferId);
    const record = t.deps.db.prepare(
      `INSERT INTO usage_records (usage_id, workspace_id, transfer_id, direction, bytes, recorded_at)
       VALUES (?, ?, ?, 'send', ?, ?)`,
    );
    record.run(usageId, t.workspaceId, transferId, 300, clock.now());
    record.run(usageId, t.workspaceId, transferId, 700, clock.now());
    record.run("usg_other", t.workspaceId, "other", 5, clock.now());
    expect((await get(transferId)).usageBytes).toBe(1000);
  });

  it("puts NODE_URL and PUBLIC_URL into the spec when configured", async () => {
    await t.close();
    t = await createTestApp({
      clock,
      config: {
        nodeUrl: "https://node1.example.com/node/v1",
        publicUrl: "https://consign.example.com",
      },
    });
    const { transferSpec, transferId } = await send();
    expect(transferSpec.node.uploads).toBe("https://node1.example.com/node/v1/uploads");
    expect(transferSpec.progress.url).toBe(
      `https://consign.example.com/v1/workspaces/${t.workspaceId}/transfers/${transferId}`,
    );
  });

  it("counts a receive's totals from the tree, a source inside another once", async () => {
    await writeFile(t, "Outgoing/reel/a.mov", "aaaa");
    await writeFile(t, "Outgoing/reel/b/c.mov", "cc");
    const created = await receive({
      paths: [
        { source: "reel", destination: "/tmp/reel" },
        { source: "reel/a.mov", destination: "/tmp/a.mov" },
        { source: "cut.mov", destination: "/tmp/cut.mov" },
      ],
      sourceRoot: "Outgoing",
      fileCount: 99,
      totalBytes: 1,
    });
    expect(created.transferSpec).toMatchObject({ fileCount: 3, totalBytes: 16 });
    expect(await get(created.transferId)).toMatchObject({ filesTotal: 3, bytesTotal: 16 });
  });

  it("refuses a receive of a path that does not exist: 404 naming it, nothing stored", async () => {
    const res = await create({
      direction: "receive",
      paths: [{ source: "Nowhere/x.mov", destination: "/tmp/x" }],
    });
    const err = await expectError(res, 404);
    expect(err.code).toBe("not_found");
    expect(err.details).toEqual({ path: "Nowhere/x.mov" });
    expect(t.deps.db.prepare("SELECT count(*) FROM transfers").pluck().get()).toBe(0);
  });

  it("refuses send-only options on a receive", async () => {
    await writeFile(t, "a.txt");
    const res = await create({
      direction: "receive",
      paths: [{ source: "a.txt", destination: "/tmp/a.txt" }],
      deliverTo: ["Review"],
      growingFileWaitSeconds: 5,
    });
    const err = await expectError(res, 400);
    expect(err.issues.map((i) => [i.field, i.code])).toEqual([
      ["deliverTo", "send_only"],
      ["growingFileWaitSeconds", "send_only"],
    ]);
  });

  const item = { source: "/local/a", destination: "a" };
  const bounds: [string, Partial<CreateTransferBody>, string, string][] = [
    ["no paths", { paths: [] }, "paths", "too_small"],
    ["10,001 paths", { paths: Array(10_001).fill(item) }, "paths", "too_big"],
    [
      "a path item without destination",
      { paths: [{ source: "x" } as never] },
      "paths.0.destination",
      "invalid_type",
    ],
    [
      "a source over 4096",
      { paths: [{ source: "x".repeat(4097), destination: "a" }] },
      "paths.0.source",
      "too_big",
    ],
    ["streams 0", { streams: 0 }, "streams", "too_small"],
    ["streams 129", { streams: 129 }, "streams", "too_big"],
    ["streams 1.5", { streams: 1.5 }, "streams", "invalid_type"],
    [
      "growingFileWaitSeconds 0",
      { growingFileWaitSeconds: 0 },
      "growingFileWaitSeconds",
      "too_small",
    ],
    [
      "growingFileWaitSeconds 3601",
      { growingFileWaitSeconds: 3601 },
      "growingFileWaitSeconds",
      "too_big",
    ],
    [
      "a password of 7",
      { contentProtectionPassword: "x".repeat(7) },
      "contentProtectionPassword",
      "too_small",
    ],
    [
      "a password of 257",
      { contentProtectionPassword: "x".repeat(257) },
      "contentProtectionPassword",
      "too_big",
    ],
    ["21 deliverTo folders", { deliverTo: Array(21).fill("R") }, "deliverTo", "too_big"],
    ["fileCount -1", { fileCount: -1 }, "fileCount", "too_small"],
    ["totalBytes -1", { totalBytes: -1 }, "totalBytes", "too_small"],
    ["an unknown priority", { priority: "urgent" as never }, "priority", "invalid_value"],
    ["an unknown client", { client: "robot" as never }, "client", "invalid_value"],
    ["an unknown direction", { direction: "sideways" as never }, "direction", "invalid_value"],
    ["rawAscp not a boolean", { rawAscp: "yes" as never }, "rawAscp", "invalid_type"],
  ];
  it.each(bounds)("refuses %s", async (_name, over, field, code) => {
    const res = await create({ direction: "send", paths: [item], ...over });
    const err = await expectError(res, 400);
    expect(err.code).toBe("validation_failed");
    expect(err.issues).toContainEqual(expect.objectContaining({ field, code }));
  });

  it("accepts every bound's edge", async () => {
    await send({
      paths: Array(10_000).fill(item),
      streams: 128,
      growingFileWaitSeconds: 3600,
      contentProtectionPassword: "x".repeat(256),
      deliverTo: Array(20).fill("R"),
      fileCount: 0,
      totalBytes: 0,
    });
    await send({ streams: 1, growingFileWaitSeconds: 1, contentProtectionPassword: "x".repeat(8) });
  });

  const rejected: [string, Partial<CreateTransferBody>, string][] = [
    [
      "an absolute destination",
      { paths: [{ source: "/a", destination: "/etc/a" }], destinationRoot: undefined },
      "paths.0.destination",
    ],
    [
      "a destination with ..",
      { paths: [{ source: "/a", destination: "../a" }] },
      "paths.0.destination",
    ],
    ["an empty segment", { paths: [{ source: "/a", destination: "a//b" }] }, "paths.0.destination"],
    ["an absolute destinationRoot", { destinationRoot: "/Projects" }, "destinationRoot"],
    ["a deliverTo outside the workspace", { deliverTo: ["../Review"] }, "deliverTo.0"],
    [
      "a destination over 4096 characters once joined to its root",
      {
        destinationRoot: Array(15).fill("r".repeat(255)).join("/"),
        paths: [{ source: "/a", destination: `${"d".repeat(255)}/${"d".repeat(255)}` }],
      },
      "paths.0.destination",
    ],
  ];
  it.each(rejected)(
    "refuses %s on the workspace side: path_rejected",
    async (_name, over, field) => {
      const err = await expectError(
        await create({ direction: "send", paths: [item], ...over }),
        400,
      );
      expect(err.code).toBe("path_rejected");
      expect(err.issues).toContainEqual(expect.objectContaining({ field, code: "path_rejected" }));
    },
  );

  it.each([
    ["a destination's folder", { paths: [{ source: "/a", destination: "Shoot/day1/a.mov" }] }],
    ["the destination root", { destinationRoot: "Projects/Shoot/day1" }],
    ["a deliverTo folder", { deliverTo: ["Projects/Shoot/day1/Review"] }],
  ])("refuses a send when a file stands where %s must be", async (_name, over) => {
    await writeFile(t, "Projects/Shoot/day1", "a file");
    const err = await expectError(
      await create({ direction: "send", paths: [item], destinationRoot: "Projects", ...over }),
      400,
    );
    expect(err.issues[0]!.code).toBe("file_in_the_way");
    expect(err.details.path).toBe("Projects/Shoot/day1");
  });

  it("lets a send replace a file at its destination", async () => {
    await writeFile(t, "Projects/Shoot", "a file");
    await send();
  });

  it("holds a receive's sources to the path rules, and leaves the machine side alone", async () => {
    const err = await expectError(
      await create({ direction: "receive", paths: [{ source: "/etc/passwd", destination: "a" }] }),
      400,
    );
    expect(err.issues).toContainEqual(
      expect.objectContaining({ field: "paths.0.source", code: "path_rejected" }),
    );
    await writeFile(t, "a.txt");
    await start({
      direction: "receive",
      paths: [{ source: "a.txt", destination: "C:\\tmp\\..\\a" }],
    });
  });
});

describe("scopes and lookups", () => {
  it("lets a read key list and read but not create or report", async () => {
    const { transferId } = await send();
    const reader = t.keyWith(["files:read"]);
    expect((await api(reader).$get({ param: t.ws, query: {} })).status).toBe(200);
    expect((await api(reader)[":transferId"].$get({ param: { ...t.ws, transferId } })).status).toBe(
      200,
    );
    const post = await expectError(
      await create({ direction: "send", paths: [{ source: "a", destination: "a" }] }, reader),
      403,
    );
    expect(post.details.reason).toBe("missing_scope");
    expect(
      (await expectError(await patch(transferId, progress("running"), reader), 403)).code,
    ).toBe("forbidden");
    expect((await get(transferId)).status).toBe("queued");
  });

  it("refuses a key without files:read the list", async () => {
    const other = t.keyWith(["shares:write"]);
    expect((await api(other).$get({ param: t.ws, query: {} })).status).toBe(403);
  });

  it("answers 404 for an unknown transfer, to GET and PATCH", async () => {
    const param = { ...t.ws, transferId: "01jz0000000000000000000000" };
    const err = await expectError(await api()[":transferId"].$get({ param }), 404);
    expect(err.details).toEqual({ transferId: param.transferId });
    await expectError(await patch(param.transferId, progress("running")), 404);
  });

  it("lists newest first, filtered by status, direction and active", async () => {
    const a = await send();
    clock.advance(1000);
    const b = await receive();
    clock.advance(1000);
    const c = await send();
    await okBody(await patch(c.transferId, progress("cancelled")));
    const list = async (query: Record<string, string>) =>
      (await okBody(await api().$get({ param: t.ws, query }))).map((x) => x.id);
    expect(await list({})).toEqual([c.transferId, b.transferId, a.transferId]);
    expect(await list({ direction: "send" })).toEqual([c.transferId, a.transferId]);
    expect(await list({ status: "cancelled" })).toEqual([c.transferId]);
    expect(await list({ active: "true" })).toEqual([b.transferId, a.transferId]);
    expect(await list({ limit: "1" })).toEqual([c.transferId]);
    const err = await expectError(await api().$get({ param: t.ws, query: { limit: "201" } }), 400);
    expect(err.issues[0]!.field).toBe("query.limit");
  });

  it("names a transfer's first 3 paths in the list and its first 100 when read alone", async () => {
    const paths = Array.from({ length: 120 }, (_, i) => ({
      source: `/shoot/${i}.mov`,
      destination: `Shoot/${i}.mov`,
    }));
    const { transferId } = await send({ paths });
    const [listed] = await okBody(await api().$get({ param: t.ws, query: {} }));
    expect(listed!.pathsCount).toBe(120);
    expect(listed!.paths).toEqual(paths.slice(0, 3));
    expect((await get(transferId)).paths).toEqual(paths.slice(0, 100));
  });
});

/** A receive in state `s` (a receive of 0 bytes may complete: 0 bytes were served). */
async function transferIn(s: TransferState) {
  const { transferId } = await receive();
  const path: Record<TransferState, TransferState[]> = {
    queued: [],
    running: ["running"],
    paused: ["running", "paused"],
    completed: ["completed"],
    failed: ["failed"],
    cancelled: ["cancelled"],
  };
  for (const step of path[s]) await okBody(await patch(transferId, progress(step)));
  expect((await get(transferId)).status).toBe(s);
  return transferId;
}

describe("state machine", () => {
  const moves = transferStates.flatMap((from) =>
    transferStates.map((to) => {
      const terminal = terminalTransferStates.includes(from);
      return { from, to, allowed: from === to ? !terminal : transferMoves[from].includes(to) };
    }),
  );

  it("has the documented table: 15 allowed moves of 36", () => {
    expect(moves.filter((m) => m.allowed)).toHaveLength(15);
  });

  it.each(moves.filter((m) => m.allowed))("allows $from -> $to", async ({ from, to }) => {
    const id = await transferIn(from);
    const record = await okBody(await patch(id, progress(to)));
    expect(record.status).toBe(to);
  });

  it.each(moves.filter((m) => !m.allowed))(
    "refuses $from -> $to: invalid_transition, nothing changed",
    async ({ from, to }) => {
      const id = await transferIn(from);
      const before = await get(id);
      const err = await expectError(await patch(id, progress(to, { filesDone: 0 })), 400);
      expect(err.code).toBe("validation_failed");
      expect(err.issues).toEqual([
        expect.objectContaining({ field: "status", code: "invalid_transition" }),
      ]);
      expect(err.details).toMatchObject({
        from,
        to,
        allowed: terminalTransferStates.includes(from) ? [] : [from, ...transferMoves[from]],
      });
      expect(await get(id)).toEqual(before);
    },
  );

  it("keeps a terminal transfer terminal: no counters, no error, no second finish", async () => {
    const id = await transferIn("failed");
    for (const s of transferStates) {
      const err = await expectError(await patch(id, progress(s, { bytesDone: 1 })), 400);
      expect(err.issues[0]!.code).toBe("invalid_transition");
    }
    expect(await get(id)).toMatchObject({ status: "failed", bytesDone: 0 });
  });

  it("sets startedAt on the first run, finishedAt at the end, and keeps the first start", async () => {
    const id = await transferIn("queued");
    const t0 = clock.now();
    await okBody(await patch(id, progress("running")));
    clock.advance(5000);
    await okBody(await patch(id, progress("paused")));
    await okBody(await patch(id, progress("running")));
    clock.advance(5000);
    const done = await okBody(await patch(id, progress("cancelled")));
    expect(done.startedAt).toBe(new Date(t0).toISOString());
    expect(done.finishedAt).toBe(new Date(clock.now()).toISOString());
  });
});

describe("counters", () => {
  it("never go backwards", async () => {
    const { transferId } = await send({ fileCount: 10, totalBytes: 1000 });
    await okBody(await patch(transferId, progress("running", { filesDone: 3, bytesDone: 300 })));
    for (const [field, over] of [
      ["filesDone", { filesDone: 2, bytesDone: 300 }],
      ["bytesDone", { filesDone: 3, bytesDone: 299 }],
    ] as const) {
      const err = await expectError(await patch(transferId, progress("running", over)), 400);
      expect(err.issues).toEqual([expect.objectContaining({ field, code: "counter_backwards" })]);
    }
    expect(await get(transferId)).toMatchObject({ filesDone: 3, bytesDone: 300 });
  });

  it("never pass the totals, and a total never drops below what is done", async () => {
    const { transferId } = await send({ fileCount: 10, totalBytes: 1000 });
    const over = [
      ["filesDone", { filesDone: 11 }],
      ["bytesDone", { bytesDone: 1001 }],
      ["filesDone", { filesDone: 5, filesTotal: 4 }],
    ] as const;
    for (const [field, o] of over) {
      const err = await expectError(await patch(transferId, progress("running", o)), 400);
      expect(err.issues).toEqual([
        expect.objectContaining({ field, code: "counter_exceeds_total" }),
      ]);
    }
    expect((await get(transferId)).status).toBe("queued");
  });

  it("takes totals once the engine knows them", async () => {
    const { transferId } = await send();
    expect(await get(transferId)).toMatchObject({ filesTotal: null, bytesTotal: null });
    await okBody(await patch(transferId, progress("running", { bytesDone: 5_000_000 })));
    const record = await okBody(
      await patch(
        transferId,
        progress("running", { bytesDone: 6_000_000, filesTotal: 4, bytesTotal: 9_000_000 }),
      ),
    );
    expect(record).toMatchObject({ filesTotal: 4, bytesTotal: 9_000_000, bytesDone: 6_000_000 });
  });

  it("computes avgRateKbps from the start, and stores the engine's rateKbps as reported", async () => {
    const { transferId } = await send();
    await okBody(await patch(transferId, progress("running")));
    clock.advance(10_000);
    const record = await okBody(
      await patch(transferId, progress("running", { bytesDone: 10_000_000, rateKbps: 123 })),
    );
    expect(record.avgRateKbps).toBe(8000);
    expect(record.rateKbps).toBe(123);
    clock.advance(10_000);
    expect(
      (await okBody(await patch(transferId, progress("paused", { bytesDone: 10_000_000 }))))
        .avgRateKbps,
    ).toBe(4000);
  });
});

describe("completed", () => {
  it("is refused for a send until the node has committed every file, none still uploading", async () => {
    const { transferId } = await send({ fileCount: 2 });
    await okBody(await patch(transferId, progress("running")));
    const done = progress("completed", { filesDone: 2, bytesDone: 20 });
    let err = await expectError(await patch(transferId, done), 400);
    expect(err.issues[0]!.code).toBe("not_committed");
    expect(err.details).toMatchObject({ filesCommitted: 0, filesTotal: 2 });

    await nodeCommits(transferId, "Projects/Shoot/a.mov");
    await nodeCommits(transferId, "Projects/Shoot/b.mov");
    nodeUpload(transferId, "Projects/Shoot/c.mov", "uploading");
    err = await expectError(await patch(transferId, done), 400);
    expect(err.details).toMatchObject({ filesCommitted: 2, filesTotal: 2, uploading: 1 });

    t.deps.db
      .prepare("UPDATE transfer_uploads SET status = 'failed' WHERE id = ?")
      .run("up_Projects/Shoot/c.mov");
    const record = await okBody(await patch(transferId, done));
    expect(record).toMatchObject({ status: "completed", filesCommitted: 2 });
  });

  it("checks a send without declared totals against the files it reports", async () => {
    const { transferId } = await send();
    const done = progress("completed", { filesDone: 1, bytesDone: 5 });
    expect((await expectError(await patch(transferId, done), 400)).details).toMatchObject({
      filesCommitted: 0,
      filesTotal: 1,
    });
    await nodeCommits(transferId, "Projects/Shoot/a.mov", "aaaaa");
    await okBody(await patch(transferId, done));
  });

  it("is refused for a receive until the node has served the bytes reported", async () => {
    const { transferId } = await receive();
    await okBody(await patch(transferId, progress("running")));
    const done = progress("completed", { filesDone: 1, bytesDone: 10 });
    serve(transferId, 4);
    const err = await expectError(await patch(transferId, done), 400);
    expect(err.issues[0]!.code).toBe("not_served");
    expect(err.details).toMatchObject({ bytesServed: 4, bytesDone: 10 });
    serve(transferId, 6);
    expect((await okBody(await patch(transferId, done))).status).toBe("completed");
  });
});

describe("events and endings", () => {
  it("records transfer.completed once, with files, bytes, the service's rate, client and paths", async () => {
    const { transferId } = await send({ client: "web" });
    await okBody(await patch(transferId, progress("running")));
    await nodeCommits(transferId, "Projects/Shoot/a.mov", "x".repeat(1000));
    clock.advance(2000);
    const done = progress("completed", { filesDone: 1, bytesDone: 1000 });
    await okBody(await patch(transferId, done));
    await expectError(await patch(transferId, done), 400);
    expect(events("transfer.completed")).toEqual([
      {
        transferId,
        direction: "send",
        client: "web",
        files: 1,
        bytes: 1000,
        rateKbps: 4,
        paths: ["Projects/Shoot"],
        finishedAt: new Date(clock.now()).toISOString(),
      },
    ]);
    expect(events("transfer.failed")).toEqual([]);
  });

  it("records transfer.failed once with the engine's error; a cancel records nothing", async () => {
    const { transferId } = await receive();
    await okBody(
      await patch(
        transferId,
        progress("failed", {
          filesDone: 0,
          bytesDone: 0,
          errorCode: "disk_full",
          errorMessage: "No space left",
        }),
      ),
    );
    expect(await get(transferId)).toMatchObject({
      errorCode: "disk_full",
      errorMessage: "No space left",
    });
    expect(events("transfer.failed")).toEqual([
      {
        transferId,
        direction: "receive",
        client: "agent",
        filesDone: 0,
        bytesDone: 0,
        errorCode: "disk_full",
        errorMessage: "No space left",
      },
    ]);
    const other = await receive();
    await okBody(await patch(other.transferId, progress("cancelled")));
    expect(events("transfer.failed")).toHaveLength(1);
    expect(events("transfer.completed")).toHaveLength(0);
  });

  it.each(["cancelled", "failed"] as const)(
    "marks a %s send's uploads in flight cancelled, and leaves committed ones alone",
    async (end) => {
      const { transferId } = await send();
      await nodeCommits(transferId, "Projects/Shoot/a.mov");
      nodeUpload(transferId, "Projects/Shoot/b.mov", "uploading");
      await okBody(await patch(transferId, progress(end, { filesDone: 1, bytesDone: 10 })));
      expect(uploadStatus("Projects/Shoot/a.mov")).toBe("committed");
      expect(uploadStatus("Projects/Shoot/b.mov")).toBe("cancelled");
    },
  );
});

describe("token windows", () => {
  it("refuses a token never used once its start window has passed", async () => {
    const { transferSpec } = await send();
    clock.advance(TRANSFER_START_WINDOW_SECONDS * 1000 + 1);
    expect(() => grantFor(transferSpec.token)).toThrowError(
      expect.objectContaining({ status: 401, code: "expired_token" }),
    );
  });

  it("still grants a started transfer after the start window, until it ends", async () => {
    const { transferSpec, transferId } = await send();
    clock.advance(60_000);
    grantFor(transferSpec.token);
    clock.advance(TRANSFER_START_WINDOW_SECONDS * 1000);
    const grant = grantFor(transferSpec.token);
    expect(grant.roots).toEqual(["Projects/Shoot"]);
    expect(withinGrant(grant, "Projects/Shoot")).toBe(true);
    expect(withinGrant(grant, "Projects/Shoot/day 1/a.mov")).toBe(true);
    expect(withinGrant(grant, "Projects/Shoot2/a.mov")).toBe(false);
    expect(withinGrant(grant, "Projects")).toBe(false);
    await okBody(await patch(transferId, progress("cancelled")));
    expect(() => grantFor(transferSpec.token)).toThrowError(
      expect.objectContaining({ status: 401, code: "expired_token" }),
    );
  });
});

describe("deliverTo", () => {
  it("copies each committed file into every deliverTo folder on completion: same content, no bytes copied", async () => {
    await writeFile(t, "Projects/Shoot/old.txt", "there before");
    await writeFile(t, "Review/Shoot/a.mov", "stale");
    const { transferId } = await send({ deliverTo: ["Review", "Client/Inbox"] });
    await nodeCommits(transferId, "Projects/Shoot/a.mov", "alpha");
    await nodeCommits(transferId, "Projects/Shoot/day 2/b.mov", "bravo");
    const blobs = () => t.deps.db.prepare("SELECT count(*) FROM blobs").pluck().get();
    const before = blobs();
    await okBody(await patch(transferId, progress("completed", { filesDone: 2, bytesDone: 10 })));
    await t.deps.jobs.runDue();
    expect(await folderNames(t, "Review/Shoot")).toEqual(["day 2", "a.mov"]);
    expect(await folderNames(t, "Client/Inbox/Shoot")).toEqual(["day 2", "a.mov"]);
    expect(await folderNames(t, "Client/Inbox/Shoot/day 2")).toEqual(["b.mov"]);
    const sha = (p: string) => t.deps.files.get(t.workspaceId, p).sha256;
    expect(sha("Review/Shoot/a.mov")).toBe(sha("Projects/Shoot/a.mov"));
    expect(sha("Client/Inbox/Shoot/day 2/b.mov")).toBe(sha("Projects/Shoot/day 2/b.mov"));
    expect(t.deps.files.get(t.workspaceId, "Review/Shoot/a.mov").version_count).toBe(1);
    // No new blob: the copies reference what the node stored.
    expect(blobs()).toBe(before);
    // Run again (a crash before the job was marked done): nothing changes.
    await t.deps.jobs.runDue();
    t.deps.jobs.enqueue("transfers.deliver", { transferId });
    await t.deps.jobs.runDue();
    expect(t.deps.files.get(t.workspaceId, "Review/Shoot/a.mov").version_count).toBe(1);
  });

  it("skips a file whose place holds a folder, and a file deleted since, delivering the rest", async () => {
    await t.deps.files.createFolder(t.workspaceId, "Review/Shoot/a.mov");
    const { transferId } = await send({ deliverTo: ["Review"] });
    await nodeCommits(transferId, "Projects/Shoot/a.mov", "alpha");
    await nodeCommits(transferId, "Projects/Shoot/b.mov", "bravo");
    await nodeCommits(transferId, "Projects/Shoot/c.mov", "charlie");
    t.deps.files.remove(t.workspaceId, ["Projects/Shoot/c.mov"], true);
    await okBody(await patch(transferId, progress("completed", { filesDone: 3, bytesDone: 17 })));
    await t.deps.jobs.runDue();
    expect(await folderNames(t, "Review/Shoot")).toEqual(["a.mov", "b.mov"]);
    expect(t.deps.files.get(t.workspaceId, "Review/Shoot/a.mov").is_file).toBe(0);
    expect(events("file.created").at(-1)).toEqual({ paths: ["Review/Shoot/b.mov"] });
  });
});
