import { beforeEach, describe, expect, it } from "vitest";
import { selectThrottledUntil, useNetworkStore } from "./network-store";

const throttledUntil = () => selectThrottledUntil(useNetworkStore.getState());

beforeEach(() => useNetworkStore.setState({ throttleWaits: [] }));

describe("the slow-down notice", () => {
  it("stays up until the last of several concurrent waits ends, whatever order they end in", () => {
    const { beginThrottle } = useNetworkStore.getState();
    const endShort = beginThrottle(1_000);
    const endLong = beginThrottle(3_000);
    expect(throttledUntil()).toBe(3_000);
    endShort();
    expect(throttledUntil()).toBe(3_000);
    endLong();
    expect(throttledUntil()).toBeNull();

    const endLate = beginThrottle(5_000);
    const endEarly = beginThrottle(2_000);
    endLate();
    expect(throttledUntil()).toBe(2_000);
    endEarly();
    expect(throttledUntil()).toBeNull();
  });

  it("counts two waits with the same end separately, and each end only once", () => {
    const { beginThrottle } = useNetworkStore.getState();
    const endA = beginThrottle(4_000);
    const endB = beginThrottle(4_000);
    endA();
    endA();
    expect(throttledUntil()).toBe(4_000);
    endB();
    expect(throttledUntil()).toBeNull();
  });
});
