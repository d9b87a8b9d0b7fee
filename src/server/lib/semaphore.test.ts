import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore";

const settle = () => new Promise((r) => setImmediate(r));

describe("Semaphore", () => {
  it("starts at most its size at once, the next as one ends (failed or not), all in the end", async () => {
    const gate = new Semaphore(2);
    const ends: ((fail: boolean) => void)[] = [];
    const tasks = [0, 1, 2, 3].map(() =>
      gate.run(
        () =>
          new Promise<string>((resolve, reject) =>
            ends.push((fail) => (fail ? reject(new Error("boom")) : resolve("ok"))),
          ),
      ),
    );
    const results = Promise.allSettled(tasks);
    await settle();
    expect(ends).toHaveLength(2);
    ends[0]!(true);
    await settle();
    expect(ends).toHaveLength(3);
    ends[1]!(false);
    ends[2]!(false);
    await settle();
    expect(ends).toHaveLength(4);
    ends[3]!(false);
    expect((await results).map((r) => r.status)).toEqual([
      "rejected",
      "fulfilled",
      "fulfilled",
      "fulfilled",
    ]);
  });
});
