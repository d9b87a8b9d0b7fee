import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type CreateTransferBody,
  NODE_BUSY_RETRY_AFTER_SECONDS,
  TRANSFER_START_WINDOW_SECONDS,
} from "@/contract/transfers";
import { ManualClock } from "@/server/lib/clock";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { createTestApp, TEST_START, type TestApp } from "@/server/testing/test-app";
import { readTransferToken, tokenVerifier } from "./transfer-token";
import { transfersRouter } from "./transfers.index";

let t: TestApp;
let clock: ManualClock;
const A = "https://node-a.example.com/node/v1";
const B = "https://node-b.example.com/node/v1";

beforeEach(async () => {
  clock = new ManualClock(TEST_START);
  t = await createTestApp({ clock, config: { dataNodes: [A, B], nodeMaxTransfers: 2 } });
});
afterEach(() => t.close());

const api = () => t.client(transfersRouter).workspaces[":workspaceId"].transfers;
const body: CreateTransferBody = {
  direction: "send",
  paths: [{ source: "/home/ana/shoot", destination: "Shoot" }],
  destinationRoot: "Projects",
};
const create = () => api().$post({ param: t.ws, json: body });
async function nodeOf() {
  const { transferSpec, transferId } = await expectBody(await create(), 201);
  // The token is for the node the spec names, and no other.
  const claims = readTransferToken(
    { ...tokenVerifier(t.deps.config), node: transferSpec.node.url },
    transferSpec.token,
    clock.now(),
  );
  expect(claims.node).toBe(transferSpec.node.url);
  return { node: transferSpec.node.url, transferId };
}

describe("the least busy data node", () => {
  it("spreads transfers over the configured nodes, then answers node_busy with Retry-After", async () => {
    const picked = [];
    for (let i = 0; i < 4; i++) picked.push((await nodeOf()).node);
    expect(picked).toEqual([A, B, A, B]);
    const res = await create();
    expect(res.headers.get("Retry-After")).toBe(String(NODE_BUSY_RETRY_AFTER_SECONDS));
    const refused = await expectError(res, 429);
    expect(refused.code).toBe("node_busy");
    expect(refused.details).toMatchObject({
      reason: "all_nodes_busy",
      retryAfterSeconds: NODE_BUSY_RETRY_AFTER_SECONDS,
    });
  });

  it("frees a node's place when one of its transfers ends, or was never started in time", async () => {
    const first = await nodeOf();
    for (let i = 0; i < 3; i++) await nodeOf();
    await okBody(
      await api()[":transferId"].$patch({
        param: { ...t.ws, transferId: first.transferId },
        json: { status: "cancelled", bytesDone: 0, filesDone: 0 },
      }),
    );
    expect((await nodeOf()).node).toBe(A);
    await expectError(await create(), 429);
    // Tokens never used within their start window hold no place.
    clock.advance(TRANSFER_START_WINDOW_SECONDS * 1000 + 1);
    expect((await nodeOf()).node).toBe(A);
  });

  it("puts the embedded node into the spec when no node is configured", async () => {
    await t.close();
    t = await createTestApp({ clock });
    // Its default: no capacity, so the embedded profile never answers node_busy.
    for (let i = 0; i < 3; i++) await expectBody(await create(), 201);
    const { transferSpec } = await expectBody(await create(), 201);
    expect(transferSpec.node.url).toMatch(/\/node\/v1$/);
    expect(
      readTransferToken(tokenVerifier(t.deps.config), transferSpec.token, clock.now()).node,
    ).toBe("embedded");
  });
});
