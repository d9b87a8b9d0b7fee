import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ReviewBody } from "@/contract/portal-review";
import { ManualClock } from "@/server/lib/clock";
import { byPath } from "@/server/modules/files/files.repository";
import { type NodeTest, startNodeTest } from "@/server/node/node-testing";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { portalHelpers } from "./portal-testing";

let n: NodeTest;

beforeEach(async () => {
  // The node's tus layer measures upload expiry by the wall clock: start from now.
  n = await startNodeTest({ clock: new ManualClock(Math.floor(Date.now() / 60_000) * 60_000) });
});
afterEach(() => n.close());

const { admin, portal, send } = portalHelpers(() => n);
const review = (portalId: string, uploadId: string, json: ReviewBody) =>
  admin().portals[":portalId"].uploads[":uploadId"].review.$post({
    param: { ...n.t.ws, portalId, uploadId },
    json,
  });
const exists = (p: string) => byPath(n.t.deps.db, n.t.workspaceId, p) !== undefined;
/** Runs the queued jobs until none is due (a move job runs in batches). */
async function settle() {
  while ((await n.t.deps.jobs.runDue()) > 0);
}

describe("undoing an approval", () => {
  it("moves the folder back where it landed, in the same request", async () => {
    const p = await portal({ approvedPath: "Approved" });
    const { started } = await send(p.slug, { "a.txt": "one", "sub/b.txt": "two" });
    const landed = started.transferSpec.destinationRoot;
    const approved = await expectBody(
      await review(p.id, started.uploadId, { decision: "approved" }),
      200,
    );
    await settle();
    expect(exists(`${approved.folderPath}/sub/b.txt`)).toBe(true);
    expect(exists(landed)).toBe(false);

    const undone = await expectBody(
      await review(p.id, started.uploadId, { decision: "pending" }),
      200,
    );
    expect(undone.folderPath).toBe(landed);
    expect(undone.files.map((f) => f.path).sort()).toEqual([
      `${landed}/a.txt`,
      `${landed}/sub/b.txt`,
    ]);
    await settle();
    expect(exists(`${landed}/sub/b.txt`)).toBe(true);
    expect(exists(approved.folderPath)).toBe(false);

    // Approved again, it moves again: the record of where it came from is fresh each time.
    const again = await expectBody(
      await review(p.id, started.uploadId, { decision: "approved" }),
      200,
    );
    await settle();
    expect(exists(`${again.folderPath}/a.txt`)).toBe(true);
  });

  it("undone before the move ran, the move is cancelled and nothing moves", async () => {
    const p = await portal({ approvedPath: "Approved" });
    const { started } = await send(p.slug, { "a.txt": "one" });
    const landed = started.transferSpec.destinationRoot;
    await expectBody(await review(p.id, started.uploadId, { decision: "approved" }), 200);
    const undone = await expectBody(
      await review(p.id, started.uploadId, { decision: "rejected", note: "Wrong cut" }),
      200,
    );
    expect(undone.folderPath).toBe(landed);
    await settle();
    expect(exists(`${landed}/a.txt`)).toBe(true);
    expect(exists("Approved")).toBe(true);
    expect(n.t.deps.db.prepare("SELECT status FROM file_operations").pluck().all()).toEqual([
      "cancelled",
    ]);
  });

  it("refuses with 409 when something now stands where the folder was", async () => {
    const p = await portal({ approvedPath: "Approved" });
    const { started } = await send(p.slug, { "a.txt": "one" });
    const landed = started.transferSpec.destinationRoot;
    const approved = await expectBody(
      await review(p.id, started.uploadId, { decision: "approved" }),
      200,
    );
    await settle();
    n.t.deps.files.createFolder(n.t.workspaceId, landed);
    const refused = await expectError(
      await review(p.id, started.uploadId, { decision: "pending" }),
      409,
    );
    expect(refused.code).toBe("conflict");
    expect(refused.details).toMatchObject({ path: landed, uploadId: started.uploadId });
    // Nothing changed: still approved, still in the approved folder.
    const still = await expectBody(
      await admin().portals[":portalId"].$get({ param: { ...n.t.ws, portalId: p.id } }),
      200,
    );
    expect(still.uploads[0]).toMatchObject({ status: "approved", folderPath: approved.folderPath });
  });
});
