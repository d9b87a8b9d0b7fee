import { createHash } from "node:crypto";
import { afterEach, beforeEach, expect, it } from "vitest";
import { shareDeliveries } from "@/server/db/migrations/0011-share-deliveries";
import { ManualClock } from "@/server/lib/clock";
import { expectBody, okBody } from "@/server/testing/expect-body";
import { writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { recordShareDownload, resolveShareLink } from "./share-access";
import { sharesRouter } from "./shares.index";

let t: TestApp;
let clock: ManualClock;
const sha = (s: string) => createHash("sha256").update(s).digest("hex");

beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock });
  await writeFile(t, "Out/a.mov", "alpha");
  await writeFile(t, "Out/b.wav", "bravo");
});
afterEach(() => t.close());

const api = () => t.client(sharesRouter).workspaces[":workspaceId"].shares;
const receipt = async (shareId: string) =>
  okBody(await api()[":shareId"].receipt.$get({ param: { ...t.ws, shareId } }));

it("migration 0011 replays the downloads recorded before it into the same matrix", async () => {
  const s = await expectBody(
    await api().$post({
      param: t.ws,
      json: { paths: ["Out"], recipients: ["ana@example.com", "bo@example.com"] },
    }),
    201,
  );
  const ana = resolveShareLink(t.deps.db, s.recipientLinks[0]!.url.split("/").at(-1)!)!;
  const download = (recipientId: string | null, b: string | null) => {
    clock.advance(1000);
    recordShareDownload(t.deps, {
      shareId: s.id,
      recipientId,
      startedAt: clock.now(),
      completedAt: clock.now() + 10,
      files: [
        { path: "Out/a.mov", bytes: 5, sha256: sha("alpha") },
        { path: "Out/b.wav", bytes: 5, sha256: b },
      ],
    });
  };
  download(ana.recipientId, sha("tampered"));
  download(ana.recipientId, sha("bravo"));
  download(null, null);
  const kept = await receipt(s.id);
  expect(kept.verdict).toBe("partly_delivered");
  expect(kept.matrix.map((m) => m.cells)).toEqual(["vv", "--", "vu"]);

  // The database as it was before the migration, with the same downloads.
  t.deps.db.exec(`DROP TABLE share_deliveries; DROP INDEX shares_verdict;
    ALTER TABLE shares DROP COLUMN verdict;`);
  shareDeliveries.up(t.deps.db);
  const replayed = await receipt(s.id);
  expect({ ...replayed, generatedAt: null }).toEqual({ ...kept, generatedAt: null });
});
