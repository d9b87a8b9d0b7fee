import net from "node:net";
import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { ApiError } from "@/browser/api-error";
import { selectThrottledUntil, useNetworkStore } from "@/web/stores/network-store";
import { useSessionStore } from "@/web/stores/session-store";
import { apiRequest, apiRequestValidated, NetworkError, workspacePath } from "./api-client";

// The console runs in a browser; these tests run in Node against the real service, so the two
// browser facilities the client and the session store touch are given here, before they load.
vi.hoisted(() => {
  class MemoryStorage {
    private items = new Map<string, string>();
    getItem(key: string) {
      return this.items.get(key) ?? null;
    }
    setItem(key: string, value: string) {
      this.items.set(key, value);
    }
    removeItem(key: string) {
      this.items.delete(key);
    }
  }
  Object.assign(globalThis, {
    sessionStorage: new MemoryStorage(),
    localStorage: new MemoryStorage(),
    window: { location: { href: "http://127.0.0.1/" } },
  });
});

const service = inject("service");
const throttled = inject("throttledService");

function signIn(session: { baseUrl: string; apiKey: string; workspaceId: string }) {
  useSessionStore.getState().signIn({ ...session, remember: false });
}

afterEach(() => {
  useSessionStore.getState().signOut();
  useNetworkStore.setState({ offline: false, throttleWaits: [] });
});

describe("apiRequest against the real service", () => {
  it("sends the held ETag and keeps the answer it holds when the service says 304", async () => {
    signIn({
      baseUrl: service.baseUrl,
      apiKey: service.keys.admin,
      workspaceId: service.workspaceId,
    });
    const seen: number[] = [];
    const realFetch = globalThis.fetch;
    const spy = vi.spyOn(globalThis, "fetch").mockImplementation(async (...args) => {
      const res = await realFetch(...args);
      seen.push(res.status);
      return res;
    });
    try {
      const first = await apiRequestValidated<{ total: number }>(
        workspacePath("/attention"),
        undefined,
      );
      expect(first.etag).toMatch(/^"/);
      expect(typeof first.data.total).toBe("number");
      const again = await apiRequestValidated(workspacePath("/attention"), first);
      expect(again).toBe(first);
      expect(seen).toEqual([200, 304]);
    } finally {
      spy.mockRestore();
    }
  });

  it("answers with the service's JSON for the signed-in workspace", async () => {
    signIn({
      baseUrl: service.baseUrl,
      apiKey: service.keys.admin,
      workspaceId: service.workspaceId,
    });
    const listing = await apiRequest<{ items: unknown[] }>(workspacePath("/files"));
    expect(Array.isArray(listing.items)).toBe(true);
  });

  it("signs out with the reason when the service refuses the key (401)", async () => {
    const unknownKey = `svc_sk_${"q".repeat(40)}`;
    signIn({ baseUrl: service.baseUrl, apiKey: unknownKey, workspaceId: service.workspaceId });
    expect(sessionStorage.getItem("consign.session")).toContain(unknownKey);

    const failure = await apiRequest(workspacePath("/files")).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(401);
    expect((failure as ApiError).reason).toBe("unknown");
    const state = useSessionStore.getState();
    expect(state.session).toBeNull();
    expect(state.signedOutReason).toBe("The service does not know this API key.");
    expect(sessionStorage.getItem("consign.session")).toBeNull();
  });

  it("leaves the session alone when the 401 answers explicit credentials (the connect screen)", async () => {
    signIn({
      baseUrl: service.baseUrl,
      apiKey: service.keys.admin,
      workspaceId: service.workspaceId,
    });
    const connection = { baseUrl: service.baseUrl, apiKey: `svc_sk_${"r".repeat(40)}` };
    await expect(apiRequest("/auth/key", { connection })).rejects.toMatchObject({ status: 401 });
    expect(useSessionStore.getState().session?.apiKey).toBe(service.keys.admin);
  });

  it("waits out a 429 for its Retry-After, saying so, then retries and answers", async () => {
    signIn({
      baseUrl: throttled.baseUrl,
      apiKey: throttled.key,
      workspaceId: throttled.workspaceId,
    });
    const spend = () =>
      fetch(`${throttled.baseUrl}/auth/key`, {
        headers: { Authorization: `Bearer ${throttled.key}` },
      });
    // Spend the whole budget, and see the service refuse the next call itself.
    await Promise.all(Array.from({ length: throttled.limit }, spend));
    const refused = await spend();
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(0);

    const notices: (number | null)[] = [];
    const unsubscribe = useNetworkStore.subscribe((s) => notices.push(selectThrottledUntil(s)));
    const started = Date.now();
    try {
      const info = await apiRequest<{ workspace: { id: string } }>("/auth/key");
      expect(info.workspace.id).toBe(throttled.workspaceId);
    } finally {
      unsubscribe();
    }
    // It waited (Retry-After is whole seconds, the window 2 s), told the page, and stopped telling.
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(notices.some((until) => until !== null && until > started)).toBe(true);
    expect(selectThrottledUntil(useNetworkStore.getState())).toBeNull();
  });

  it("gives the typed unreachable error and sets the offline state when nothing listens", async () => {
    const port = await closedPort();
    const connection = { baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: service.keys.admin };
    const failure = await apiRequest("/auth/key", { connection }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NetworkError);
    expect(useNetworkStore.getState().offline).toBe(true);

    // The next call that reaches a service clears it.
    await apiRequest("/auth/key", { connection: { ...connection, baseUrl: service.baseUrl } });
    expect(useNetworkStore.getState().offline).toBe(false);
  });
});

/** A port that was free a moment ago and has nothing listening on it now. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
