import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_NAME_LENGTH, MAX_PATH_LENGTH } from "@/contract/rules";
import { portalsRouter } from "@/server/modules/portals/portals.index";
import { publicPortalsRouter } from "@/server/modules/portals/public.index";
import { errorOf, expectBody, expectError } from "@/server/testing/expect-body";
import { type NodeTest, startNodeTest } from "./node-testing";

let n: NodeTest;
beforeEach(async () => {
  n = await startNodeTest();
});
afterEach(() => n.close());

/** A path under `In/` of exactly `length` characters, its names as long as the rules allow. */
function pathOf(length: number) {
  const names: string[] = ["In"];
  let used = 2;
  while (used < length) {
    const name = "n".repeat(Math.min(MAX_NAME_LENGTH, length - used - 1));
    names.push(name);
    used += name.length + 1;
  }
  const path = names.join("/");
  expect(path.length).toBe(length);
  return path;
}

describe("the paths an upload may take", () => {
  it("holds every path to the API's length bound", async () => {
    const { transferSpec } = await n.createTransfer({
      direction: "send",
      paths: [{ source: "/home/a", destination: "In" }],
    });
    const long = await n.create(transferSpec.token, {
      path: pathOf(MAX_PATH_LENGTH + 1),
      length: 1,
    });
    expect(long.status).toBe(400);
    expect((await errorOf(long)).code).toBe("path_rejected");
    // The attack's path: 5,030 characters, every name within bounds.
    const attack = await n.create(transferSpec.token, { path: pathOf(5030), length: 1 });
    expect(attack.status).toBe(400);
    expect(n.uploads()).toEqual([]);
    const longest = await n.create(transferSpec.token, {
      path: pathOf(MAX_PATH_LENGTH),
      length: 0,
    });
    expect(longest.status).toBe(201);
  });

  it("a portal's upload takes exactly the paths its sender declared", async () => {
    const admin = n.t.client(portalsRouter).workspaces[":workspaceId"];
    const portal = await expectBody(
      await admin.portals.$post({ param: n.t.ws, json: { title: "Dailies", targetPath: "In" } }),
      201,
    );
    const pub = n.t.client(publicPortalsRouter, { key: null }).public.portals[":slug"];
    const start = async (paths: string[]) =>
      pub.uploads.$post(
        { param: { slug: portal.slug }, json: { files: paths.map((path) => ({ path, size: 0 })) } },
        { headers: {} },
      );
    const started = await expectBody(await start(["clip.mov", "shots/a.mov"]), 201);
    const { token, destinationRoot } = started.transferSpec;
    for (const undeclared of ["clip.mov/other.mov", "shots/b.mov", "shots", "other.mov"]) {
      const res = await n.create(token, { path: `${destinationRoot}/${undeclared}`, length: 0 });
      expect(res.status, undeclared).toBe(403);
      expect((await errorOf(res)).details).toMatchObject({ reason: "outside_transfer" });
    }
    for (const declared of ["clip.mov", "shots/a.mov"]) {
      const res = await n.create(token, { path: `${destinationRoot}/${declared}`, length: 0 });
      expect(res.status, declared).toBe(201);
    }
    // A path the node could not take, once in the upload's folder: refused at the start.
    const long = await expectError(await start([Array(16).fill("n".repeat(255)).join("/")]), 400);
    expect(long.code).toBe("path_rejected");
    expect(long.issues).toMatchObject([{ field: "files.0.path" }]);
    // A name declared as a file and as a folder could never land whole: refused at the start.
    const clash = await expectError(await start(["clip.mov", "clip.mov/other.mov"]), 400);
    expect(clash.issues).toMatchObject([{ field: "files.1.path", code: "file_in_the_way" }]);
  });
});
