import { describe, expect, it } from "vitest";
import {
  type CreatedTransfer,
  createTransferBodySchema,
  TRANSFER_RESUME_WINDOW_SECONDS,
} from "@/contract/transfers";
import type { Caller } from "@/server/http/caller";
import { hashSecret } from "@/server/lib/secrets";
import { refusal } from "@/server/testing/engine-suites";
import type { StartTransferInput } from "./start.service";
import {
  keyedConfig,
  N1,
  N2,
  postgresStart,
  type StartEngine,
  sqliteStart,
} from "./start-store.seed";
import { readTransferToken, rootsDigest, tokenVerifier } from "./transfer-token";
import { NOW } from "./transfers-store.seed";

const caller: Caller = { workspaceId: "ws", keyId: "key1", memberId: null, origin: "http://x" };
const body = (b: Record<string, unknown>) => createTransferBodySchema.parse(b);

/** A send with every option a row keeps, its destination not in NFC as a Mac sends it. */
const SEND = body({
  direction: "send",
  destinationRoot: "In",
  paths: [
    { source: "/l/a.exr", destination: "E\u0301te\u0301/a.exr" },
    { source: "/l/b.exr", destination: "b.exr" },
  ],
  deliverTo: ["out/ready"],
  fileCount: 2,
  totalBytes: 30,
  growingFileWaitSeconds: 5,
  contentProtectionPassword: "correct horse",
  priority: "deadline",
  streams: 2,
});
/** Two sources, one inside the other, and a file at the root: 4 files, 65 bytes. */
const RECEIVE = body({
  direction: "receive",
  paths: [
    { source: "plates", destination: "/dl/p" },
    { source: "plates/sub/c.exr", destination: "/dl/c.exr" },
    { source: "notes.txt", destination: "/dl/n.txt" },
  ],
});
const SHARE_START: StartTransferInput = {
  direction: "receive",
  client: "share",
  shareId: "sh1",
  paths: [{ source: "plates/a.exr", destination: "plates/a.exr" }],
  totals: { files: 1, bytes: 99 },
};

const count = async (e: StartEngine, table: string) =>
  Number((await e.rows(`SELECT count(*) AS n FROM ${table}`))[0]!.n);
const rowOf = async (e: StartEngine, id: string) =>
  (await e.rows(`SELECT * FROM transfers WHERE id = '${id}'`))[0]!;
const pathsOf = (e: StartEngine, id: string) =>
  e.rows(
    `SELECT idx, source, destination FROM transfer_paths WHERE transfer_id = '${id}' ORDER BY idx`,
  );

/** What the same create gives on either engine: ids, token and salt are the run's own. */
async function comparable(e: StartEngine, created: CreatedTransfer) {
  const id = created.transferId;
  const { token, progress, ...spec } = created.transferSpec;
  const { id: _, usage_id, token_hash, protection_salt, ...row } = await rowOf(e, id);
  expect(token_hash).toBe(hashSecret(token));
  return {
    spec: { ...spec, transferId: "", progress: { ...progress, url: progress.url.replace(id, "") } },
    row: { ...row, sealed: protection_salt !== null },
    paths: await pathsOf(e, id),
  };
}

describe.each([
  { engine: "SQLite", use: sqliteStart },
  { engine: "PostgreSQL", use: postgresStart },
])("creating a transfer on $engine", ({ use }) => {
  const config = keyedConfig({ dataNodes: [N1, N2] });
  const open = use(config);

  it("stores a send queued with its paths in NFC, on the least busy node, and hands back its spec", async () => {
    const e = open();
    const created = await e.store.createTransfer(caller, SEND);
    const id = created.transferId;
    const expiresAt = new Date(NOW + 15 * 60_000).toISOString();
    expect(created.expiresAt).toBe(expiresAt);
    expect(created.transferSpec).toMatchObject({
      transferId: id,
      direction: "send",
      node: { url: N2, uploads: `${N2}/uploads` },
      expiresAt,
      progress: { url: `https://consign.test/v1/workspaces/ws/transfers/${id}` },
      paths: [
        { source: "/l/a.exr", destination: "Été/a.exr" },
        { source: "/l/b.exr", destination: "b.exr" },
      ],
      destinationRoot: "In",
      fileCount: 2,
      totalBytes: 30,
      streams: 2,
      priority: "deadline",
      growingFileWaitSeconds: 5,
      deliverTo: ["out/ready"],
      contentProtection: true,
    });
    expect(await rowOf(e, id)).toMatchObject({
      status: "queued",
      node: N2,
      key_id: "key1",
      files_total: 2,
      bytes_total: 30,
      deliver_to: '["out/ready"]',
      paths_count: 2,
      token_hash: hashSecret(created.transferSpec.token),
      token_expires_at: NOW + 15 * 60_000,
      created_at: NOW,
      updated_at: NOW,
    });
    expect(await pathsOf(e, id)).toEqual([
      { idx: 0, source: "/l/a.exr", destination: "Été/a.exr" },
      { idx: 1, source: "/l/b.exr", destination: "b.exr" },
    ]);
    // The nodes now hold one live transfer each: a tie goes to the first listed.
    const next = await e.store.createTransfer(caller, SEND);
    expect(next.transferSpec.node.url).toBe(N1);
    expect([await count(e, "events"), await count(e, "jobs")]).toEqual([0, 0]);
  });

  it("refuses a file where a send's folder or a deliverTo folder must be, storing nothing", async () => {
    const e = open();
    const before = await count(e, "transfers");
    const inTheWay = (path: string) => ({
      status: 400,
      code: "validation_failed",
      details: { path, issues: [{ field: "paths", code: "file_in_the_way" }] },
    });
    const under = { ...SEND, destinationRoot: "", deliverTo: [] };
    const send = (destination: string, deliverTo: string[] = []) =>
      e.store.createTransfer(caller, {
        ...under,
        deliverTo,
        paths: [{ source: "/l/x", destination }],
      });
    expect(await refusal(send("notes.txt/deep/x.exr"))).toMatchObject(inTheWay("notes.txt"));
    expect(await refusal(send("ok/x.exr", ["plates/a.exr/out"]))).toMatchObject(
      inTheWay("plates/a.exr"),
    );
    // A destination that is a file is not in the way: its content is replaced.
    await send("notes.txt");
    expect(await count(e, "transfers")).toBe(before + 1);
  });

  it("counts a receive's totals from the tree, a source inside another once, and 404s a missing one", async () => {
    const e = open();
    const created = await e.store.createTransfer(caller, RECEIVE);
    expect(created.transferSpec).toMatchObject({ fileCount: 4, totalBytes: 65 });
    expect(await rowOf(e, created.transferId)).toMatchObject({ files_total: 4, bytes_total: 65 });
    const missing = { ...RECEIVE, paths: [{ source: "plates/zz.exr", destination: "/dl/z" }] };
    expect(await refusal(e.store.createTransfer(caller, missing))).toMatchObject({
      status: 404,
      code: "not_found",
      details: { path: "plates/zz.exr" },
    });
    const sendOnly = await refusal(
      e.store.createTransfer(caller, { ...RECEIVE, deliverTo: ["x"] }),
    );
    expect(sendOnly).toMatchObject({ code: "validation_failed" });
    expect(sendOnly.details).toMatchObject({ issues: [{ field: "deliverTo", code: "send_only" }] });
  });

  it("starts a share's receive with its snapshot totals, and holds another module's paths to the rules", async () => {
    const e = open();
    const created = await e.store.startTransfer({ ...caller, keyId: null }, SHARE_START);
    expect(created.transferSpec).toMatchObject({ client: "share", fileCount: 1, totalBytes: 99 });
    expect(await rowOf(e, created.transferId)).toMatchObject({
      share_id: "sh1",
      key_id: null,
      files_total: 1,
      bytes_total: 99,
      streams: 4,
    });
    const bad = { ...SHARE_START, paths: [{ source: "a/../b", destination: "b" }] };
    expect(await refusal(e.store.startTransfer(caller, bad))).toMatchObject({
      status: 400,
      code: "path_rejected",
    });
  });
  it("grants a token to its node, marks its use, checks a digest's roots, and refuses it stale or ended", async () => {
    const e = open();
    const { transferId, transferSpec } = await e.store.createTransfer(caller, SEND);
    const claims = readTransferToken(
      tokenVerifier({ ...config(), nodeUrl: transferSpec.node.url }),
      transferSpec.token,
      NOW,
    );
    const roots = ["In/Été/a.exr", "In/b.exr"];
    expect(await e.grant(claims, NOW)).toMatchObject({ transfer: { id: transferId }, roots });
    expect(await rowOf(e, transferId)).toMatchObject({ token_used_at: NOW, last_activity_at: NOW });
    const { roots: _, ...long } = claims;
    const later = NOW + 3_600_000;
    const digest = await e.grant({ ...long, rootsSha256: rootsDigest(roots) }, later);
    expect([...digest.roots]).toEqual(roots);
    expect(await rowOf(e, transferId)).toMatchObject({
      token_used_at: NOW,
      last_activity_at: later,
    });
    const unknown = { status: 401, code: "unauthenticated", details: { reason: "unknown" } };
    expect(
      await refusal(e.grant({ ...long, rootsSha256: rootsDigest(["x"]) }, later)),
    ).toMatchObject(unknown);
    expect(await refusal(e.grant({ ...claims, workspaceId: "ws2" }, later))).toMatchObject(unknown);
    const stale = later + TRANSFER_RESUME_WINDOW_SECONDS * 1000 + 1;
    expect(await refusal(e.grant(claims, stale))).toMatchObject({
      code: "expired_token",
      details: { reason: "expired" },
    });
    await e.store.updateTransfer("ws", transferId, {
      status: "cancelled",
      filesDone: 0,
      bytesDone: 0,
    });
    expect(await refusal(e.grant(claims, later))).toMatchObject({
      code: "expired_token",
      details: { reason: "transfer_ended", status: "cancelled" },
    });
  });
});

describe.each([
  { engine: "SQLite", use: sqliteStart },
  { engine: "PostgreSQL", use: postgresStart },
])("a transfer when every node is full, on $engine", ({ use }) => {
  const open = use(keyedConfig({ dataNodes: [N1, N2], nodeMaxTransfers: 1 }));

  it("takes the last place, then answers node_busy and stores nothing", async () => {
    const e = open();
    expect((await e.store.createTransfer(caller, SEND)).transferSpec.node.url).toBe(N2);
    const before = await count(e, "transfers");
    expect(await refusal(e.store.createTransfer(caller, SEND))).toEqual({
      status: 429,
      code: "node_busy",
      message: "Every data node is busy; try again shortly",
      details: { reason: "all_nodes_busy", nodes: 2, retryAfterSeconds: 30 },
    });
    expect(await count(e, "transfers")).toBe(before);
  });
});

describe("PostgreSQL and SQLite creating the same transfers", () => {
  const config = keyedConfig({ dataNodes: [N1, N2] });
  const sqlite = sqliteStart(config);
  const postgres = postgresStart(config);

  it("store the same row and paths, and give the same spec and the same refusals", async () => {
    const [a, b] = [sqlite(), postgres()];
    for (const made of [
      (e: StartEngine) => e.store.createTransfer(caller, SEND),
      (e: StartEngine) => e.store.createTransfer(caller, RECEIVE),
      (e: StartEngine) => e.store.startTransfer(caller, SHARE_START),
    ])
      expect(await comparable(b, await made(b))).toEqual(await comparable(a, await made(a)));
    const refused = [
      { ...SEND, destinationRoot: "", paths: [{ source: "/l", destination: "notes.txt/x" }] },
      { ...RECEIVE, paths: [{ source: "nope", destination: "/dl" }] },
      { ...RECEIVE, growingFileWaitSeconds: 3 },
    ];
    for (const r of refused)
      expect(await refusal(b.store.createTransfer(caller, r))).toEqual(
        await refusal(a.store.createTransfer(caller, r)),
      );
  });
});
