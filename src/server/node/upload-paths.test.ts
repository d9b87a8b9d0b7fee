import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { MAX_NAME_LENGTH, MAX_PATH_LENGTH } from "@/contract/rules";
import { type NodeTest, startNodeTest } from "./node-testing";

let n: NodeTest;
beforeEach(async () => {
  n = await startNodeTest();
});
afterEach(() => n.close());

const errorOf = async (res: Response) =>
  ((await res.json()) as { error: { code: string; details: Record<string, unknown> } }).error;

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
});
