import { describe, expect, it } from "vitest";
import type { ShareComment } from "@/contract/shares";
import { threadsOf } from "./comment-threads";

const c = (id: string, parentId: string | null = null) =>
  ({ id, parentId, body: id }) as ShareComment;

describe("threadsOf", () => {
  it("puts replies under their first comment, in order", () => {
    const t = threadsOf([c("a"), c("b"), c("r1", "a"), c("r2", "b"), c("r3", "a")]);
    expect(t.map((x) => [x.first.id, x.replies.map((r) => r.id)])).toEqual([
      ["a", ["r1", "r3"]],
      ["b", ["r2"]],
    ]);
  });

  it("keeps a reply whose first comment is not loaded, as a thread of its own", () => {
    expect(threadsOf([c("r1", "gone")]).map((x) => x.first.id)).toEqual(["r1"]);
  });
});
