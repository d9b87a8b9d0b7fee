import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/browser/api-error";
import { PublicApi } from "./public-api";

class TestApi extends PublicApi {
  constructor() {
    super("/v1/public/things/abc", "Thing-Access", "thing-access:abc");
  }
  get = () => this.call<{ ok: boolean }>("GET", "");
  post = (body: unknown, bearer: string) =>
    this.call<null>("POST", "/x", body, { Authorization: `Bearer ${bearer}` });
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });

describe("PublicApi", () => {
  let stored: Map<string, string>;
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    stored = new Map();
    vi.stubGlobal("sessionStorage", {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => stored.set(k, v),
      removeItem: (k: string) => stored.delete(k),
    });
    fetchMock = vi.fn();
    vi.stubGlobal("fetch", fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it("sends the access token a password unlocked, and forgets it", async () => {
    fetchMock.mockResolvedValueOnce(json(200, { accessToken: "tok" }));
    const api = new TestApi();
    await api.unlock("pw");
    expect(fetchMock.mock.calls[0]).toEqual([
      "/v1/public/things/abc/unlock",
      {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ password: "pw" }),
      },
    ]);
    expect(stored.get("thing-access:abc")).toBe("tok");
    expect(new TestApi().access).toBe("tok");

    fetchMock.mockResolvedValueOnce(new Response(null, { status: 204 }));
    await expect(api.post({}, "bearer")).resolves.toBeNull();
    expect(fetchMock.mock.calls[1]?.[1].headers).toEqual({
      Authorization: "Bearer bearer",
      "Thing-Access": "tok",
      "Content-Type": "application/json",
    });

    api.forget();
    expect(api.access).toBeNull();
    expect(stored.has("thing-access:abc")).toBe(false);
  });

  it("throws the error envelope as an ApiError", async () => {
    fetchMock.mockResolvedValueOnce(
      json(400, {
        error: {
          code: "validation_failed",
          message: "Not yet",
          details: { reason: "r", issues: [{ field: "", message: "m", code: "not_served" }] },
        },
      }),
    );
    const err = await new TestApi().get().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect([e.status, e.code, e.message, e.reason, e.fieldIssues[0]?.code]).toEqual([
      400,
      "validation_failed",
      "Not yet",
      "r",
      "not_served",
    ]);
  });

  it("names the status when the answer is not the envelope", async () => {
    fetchMock.mockResolvedValueOnce(new Response("<html>", { status: 502 }));
    const e = (await new TestApi().get().catch((x: unknown) => x)) as ApiError;
    expect([e.code, e.message, e.details, e.reason, e.fieldIssues]).toEqual([
      "internal_error",
      "The service answered 502",
      null,
      null,
      [],
    ]);
  });
});
