import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TRANSFER_PATHS_MAX, TRANSFER_STREAMS_DEFAULT } from "@/contract/transfers";
import type { Caller } from "@/server/http/caller";
import { thrownRefusal } from "@/server/testing/expect-body";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { type StartTransferInput, startTransfer } from "./start.service";
import { getTransfer } from "./transfers.service";

let t: TestApp;
let caller: Caller;

beforeEach(async () => {
  t = await createTestApp();
  caller = { workspaceId: t.workspaceId, keyId: null, memberId: null, origin: "http://x.test" };
});
afterEach(() => t.close());

const send = (over: Partial<StartTransferInput> = {}): StartTransferInput => ({
  direction: "send",
  client: "portal",
  destinationRoot: "Incoming",
  paths: [{ source: "a.mov", destination: "a.mov" }],
  ...over,
});

const refusal = (input: StartTransferInput) =>
  thrownRefusal(() => startTransfer(t.deps, caller, input));

describe("startTransfer, the entry other modules start a transfer through", () => {
  it("fills the defaults the create body's schema fills", () => {
    const { transferId, transferSpec } = startTransfer(t.deps, caller, send());
    expect(transferSpec.streams).toBe(TRANSFER_STREAMS_DEFAULT);
    expect(transferSpec.priority).toBe("normal");
    expect(transferSpec.deliverTo).toEqual([]);
    expect(getTransfer(t.deps, t.workspaceId, transferId).client).toBe("portal");
  });

  it("bounds the paths as the schema does: none, or more than the most, is refused", () => {
    expect(refusal(send({ paths: [] }))).toEqual({
      code: "validation_failed",
      issues: [expect.objectContaining({ field: "paths", code: "too_small" })],
    });
    const many = Array.from({ length: TRANSFER_PATHS_MAX + 1 }, (_, i) => ({
      source: `${i}.mov`,
      destination: `${i}.mov`,
    }));
    expect(refusal(send({ paths: many }))).toEqual({
      code: "validation_failed",
      issues: [expect.objectContaining({ field: "paths", code: "too_big" })],
    });
  });

  it("holds the workspace side of each path to the path rules: path_rejected, nothing stored", () => {
    const bad = send({ paths: [{ source: "a.mov", destination: "../a.mov" }] });
    expect(refusal(bad)).toEqual({
      code: "path_rejected",
      issues: [expect.objectContaining({ field: "paths.0.destination" })],
    });
    expect(refusal(send({ destinationRoot: "/abs" })).issues[0]!.field).toBe("destinationRoot");
    const receive = refusal({
      direction: "receive",
      client: "share",
      paths: [{ source: "a//b", destination: "/tmp/b" }],
    });
    expect(receive.issues[0]!.field).toBe("paths.0.source");
    const count = t.deps.db.prepare("SELECT count(*) AS n FROM transfers").get() as { n: number };
    expect(count.n).toBe(0);
  });
});
