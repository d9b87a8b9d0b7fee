import { describe, expect, it } from "vitest";
import { PACED_BYTES_PER_SECOND, Traffic } from "./traffic";

const transfer = (id: string, priority: "background" | "normal" | "deadline", streams = 2) => ({
  id,
  priority,
  streams,
});

describe("streams and priority at the node", () => {
  it("refuses a transfer's stream beyond its streams with node_busy, and gives it back", () => {
    const traffic = new Traffic();
    const leave = traffic.enter(transfer("a", "normal", 1));
    expect(() => traffic.enter(transfer("a", "normal", 1))).toThrow(
      expect.objectContaining({ status: 429, code: "node_busy" }),
    );
    // Another transfer has its own streams.
    traffic.enter(transfer("b", "normal", 1))();
    leave();
    leave(); // twice is once
    traffic.enter(transfer("a", "normal", 1))();
  });

  it("paces background below normal and deadline, normal below deadline, only while those move", () => {
    const traffic = new Traffic();
    expect(traffic.paced("background")).toBe(false);
    const normal = traffic.enter(transfer("n", "normal"));
    expect(traffic.paced("background")).toBe(true);
    expect(traffic.paced("normal")).toBe(false);
    const deadline = traffic.enter(transfer("d", "deadline"));
    expect(traffic.paced("normal")).toBe(true);
    expect(traffic.paced("deadline")).toBe(false);
    deadline();
    normal();
    expect(traffic.paced("background")).toBe(false);
  });

  it("a paced stream waits as long as its bytes take at the paced rate", async () => {
    const traffic = new Traffic();
    const leave = traffic.enter(transfer("n", "normal"));
    const started = performance.now();
    await traffic.pace("background", PACED_BYTES_PER_SECOND / 20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
    leave();
    const alone = performance.now();
    await traffic.pace("background", PACED_BYTES_PER_SECOND);
    expect(performance.now() - alone).toBeLessThan(20);
  });
});
