import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { eventsRouter } from "@/server/modules/events/events.index";
import { webhooksRouter } from "@/server/modules/webhooks/webhooks.index";
import { diskBlobs } from "@/server/testing/disk-blobs";
import { okBody } from "@/server/testing/expect-body";
import { filesClient, listTrash, writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

let t: TestApp;
let files: ReturnType<typeof filesClient>;

beforeEach(async () => {
  const clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock, config: { webhooksAllowPrivate: true } });
  files = filesClient(t);
});
afterEach(() => t.close());

const write = (p: string, content?: string) => writeFile(t, p, content);
const createFolder = (p: string) => files.folder.$post({ param: t.ws, json: { path: p } });
const rename = (p: string, newName: string) =>
  files.$patch({ param: t.ws, json: { path: p, newName } });
const remove = (paths: string[], permanent?: boolean) =>
  files.$delete({ param: t.ws, json: { paths, permanent } });

/** The file events in the workspace's stream, as a subscriber reads them. */
async function fileEvents() {
  const stream = t.client(eventsRouter).workspaces[":workspaceId"].events;
  const page = await okBody(await stream.$get({ param: t.ws, query: { limit: "1000" } }));
  return page.events
    .filter((e) => e.type.startsWith("file."))
    .map((e) => ({ type: e.type, data: e.data }));
}

describe("file events", () => {
  it("records one event per request, carrying the paths it changed", async () => {
    await createFolder("a/b/c");
    await createFolder("a/b"); // Already there: nothing happened, nothing is recorded.
    await write("a/b/c/one.txt", "1");
    await write("new/two.txt", "2");
    await write("a/b/c/one.txt", "1 again");
    await write("a/b/c/one.txt", "1 again"); // Same bytes: no change.
    await rename("a", "z");
    await rename("z", "z");
    await remove(["z", "z/b/c/one.txt", "new/two.txt"]);
    const items = await listTrash(t);
    const byPath = Object.fromEntries(items.map((i) => [i.path, i.id]));
    const z = byPath.z!;
    const two = byPath["new/two.txt"]!;
    await files.trash[":itemId"].restore.$post({ param: { ...t.ws, itemId: z } });
    const [version] = await okBody(
      await files.versions.$get({ param: t.ws, query: { path: "z/b/c/one.txt" } }),
    );
    await files.versions[":versionId"].restore.$post({
      param: { ...t.ws, versionId: version!.id },
    });
    await files.trash[":itemId"].$delete({ param: { ...t.ws, itemId: two } });
    await remove(["z"], true);

    expect(await fileEvents()).toEqual([
      { type: "file.created", data: { paths: ["a", "a/b", "a/b/c"] } },
      { type: "file.created", data: { paths: ["a/b/c/one.txt"] } },
      { type: "file.created", data: { paths: ["new", "new/two.txt"] } },
      { type: "file.updated", data: { paths: ["a/b/c/one.txt"] } },
      { type: "file.renamed", data: { paths: ["z"], from: "a", to: "z" } },
      {
        type: "file.trashed",
        data: {
          paths: ["new/two.txt", "z"],
          itemIds: [two, z],
          purgeAt: "2026-07-01T12:00:00.000Z",
        },
      },
      {
        type: "file.restored",
        data: { paths: ["z"], itemId: z, originalPath: "z", renamed: false },
      },
      {
        type: "file.version_restored",
        data: { paths: ["z/b/c/one.txt"], versionId: version!.id },
      },
      { type: "file.deleted", data: { paths: ["new/two.txt"], itemId: two } },
      { type: "file.deleted", data: { paths: ["z"] } },
    ]);
  });

  it("says when a restore had to rename, and where the item went", async () => {
    await write("report.pdf", "old");
    await remove(["report.pdf"]);
    await write("report.pdf", "new");
    const [item] = await listTrash(t);
    await files.trash[":itemId"].restore.$post({ param: { ...t.ws, itemId: item!.id } });
    expect((await fileEvents()).at(-1)).toEqual({
      type: "file.restored",
      data: {
        paths: ["report (restored).pdf"],
        itemId: item!.id,
        originalPath: "report.pdf",
        renamed: true,
      },
    });
  });

  it("records nothing for a request that fails, even after its change was under way", async () => {
    await write("x.txt");
    await write("f.txt");
    const before = await fileEvents();
    expect((await remove(["x.txt", "missing"])).status).toBe(404);
    expect((await rename("x.txt", "f.txt")).status).toBe(400);
    expect((await createFolder("f.txt/sub")).status).toBe(400);
    // The write gets as far as recording its event; putting the bytes in place then fails
    // (a file stands where the blob's folder must go), so the event rolls back with the rest.
    const sha = createHash("sha256").update("doomed").digest("hex");
    fs.writeFileSync(path.join(diskBlobs(t.deps.files).root, sha.slice(0, 2)), "");
    await expect(write("new/doomed.txt", "doomed")).rejects.toThrow();
    expect(await fileEvents()).toEqual(before);
  });

  it("records nothing when the service purges expired trash on its own", async () => {
    await write("old.txt");
    await remove(["old.txt"]);
    (t.clock as ManualClock).advance(30 * 86_400_000 + 1);
    // The stream keeps 30 days, so the events above are gone by now; this one is not.
    await write("fresh.txt");
    await t.deps.jobs.runDue();
    expect(await listTrash(t)).toEqual([]);
    expect(await fileEvents()).toEqual([{ type: "file.created", data: { paths: ["fresh.txt"] } }]);
  });

  it("can be subscribed to by a webhook, which gets one delivery per request", async () => {
    const webhooks = t.client(webhooksRouter).workspaces[":workspaceId"].webhooks;
    const endpoint = await okBody(
      await webhooks.$post({
        param: t.ws,
        json: { url: "https://hooks.example.com/consign", events: ["file.trashed"] },
      }),
    );
    await write("a/1.txt");
    await write("a/2.txt");
    await remove(["a/1.txt", "a/2.txt"]);
    await rename("a", "b");
    const deliveries = await okBody(
      await webhooks[":webhookId"].deliveries.$get({
        param: { ...t.ws, webhookId: endpoint.id },
        query: {},
      }),
    );
    expect(deliveries.map((d) => d.type)).toEqual(["file.trashed"]);
  });
});
