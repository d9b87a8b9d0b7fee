import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";

// The console's modules expect a browser: the session store reads web storage as it loads.
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
    clear: () => items.clear(),
  };
}
vi.stubGlobal("sessionStorage", memoryStorage());
vi.stubGlobal("localStorage", memoryStorage());
vi.stubGlobal("window", { location: { href: "http://console.test/" } });
const { apiRequest } = await import("./api-client");
const { useNetworkStore } = await import("../stores/network-store");

const connection = { baseUrl: "http://service.test/v1", apiKey: `svc_sk_${"a".repeat(40)}` };

/** A service that refuses each path's first request with 429 and the given Retry-After. */
function refuseFirst(retryAfter: Record<string, number>) {
  const seen = new Set<string>();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const path = new URL(url).pathname;
      if (!seen.has(path)) {
        seen.add(path);
        return new Response(null, {
          status: 429,
          headers: { "Retry-After": String(retryAfter[path]) },
        });
      }
      return Response.json({ path });
    }),
  );
}

beforeAll(() => vi.useFakeTimers());
afterAll(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
beforeEach(() => useNetworkStore.setState({ throttledUntil: null, throttleWaits: [] }));

describe("apiRequest when the service asks it to slow down", () => {
  it("keeps the notice up until the last of several concurrent waits ends", async () => {
    refuseFirst({ "/v1/short": 1, "/v1/long": 3 });
    const start = Date.now();
    const short = apiRequest("/short", { connection });
    const long = apiRequest("/long", { connection });
    await vi.advanceTimersByTimeAsync(0);
    expect(useNetworkStore.getState().throttledUntil).toBe(start + 3_000);

    await vi.advanceTimersByTimeAsync(1_000);
    await expect(short).resolves.toEqual({ path: "/v1/short" });
    expect(useNetworkStore.getState().throttledUntil).toBe(start + 3_000);

    await vi.advanceTimersByTimeAsync(2_000);
    await expect(long).resolves.toEqual({ path: "/v1/long" });
    expect(useNetworkStore.getState().throttledUntil).toBeNull();
  });

  it("ends the notice when the only waiting request is cancelled", async () => {
    refuseFirst({ "/v1/files": 30 });
    const controller = new AbortController();
    const request = apiRequest("/files", { connection, signal: controller.signal });
    const settled = request.catch((err: unknown) => err);
    await vi.advanceTimersByTimeAsync(0);
    expect(useNetworkStore.getState().throttledUntil).not.toBeNull();

    controller.abort();
    await settled;
    expect(useNetworkStore.getState().throttledUntil).toBeNull();
  });
});
