import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import type { ManualClock } from "@/server/lib/clock";
import { authRouter } from "@/server/modules/auth/auth.index";
import { filesRouter } from "@/server/modules/files/files.index";
import { errorOf } from "@/server/testing/expect-body";
import { createTestApp, type TestApp, testAppEach } from "@/server/testing/test-app";

let t: TestApp;
let clock: ManualClock;
testAppEach((app, c) => {
  t = app;
  clock = c;
});

/** GET /auth/key (any valid key may call it) with `key`, or the admin key. */
const keyInfo = (key?: string | null) => t.client(authRouter, { key }).auth.key.$get();
/** Operations whose bearer is a portal upload's transfer token, not an API key. */
const uploadTokenOperations = ["completePortalUpload", "cancelPortalUpload"];

type OpenApiOperation = {
  operationId: string;
  "x-scopes": unknown;
  security: unknown[];
  tags?: string[];
  responses: Record<string, unknown>;
};

describe("rate limit", () => {
  it("allows exactly 600 requests a minute per key, then 429 with Retry-After", async () => {
    const key = t.keyWith(["files:read"]);
    for (let i = 0; i < 600; i++) {
      const res = await keyInfo(key);
      expect(res.status).toBe(200);
      expect(res.headers.get("RateLimit-Remaining")).toBe(String(599 - i));
      // Spread the requests over 30 s so the window, not a burst, is what is tested.
      clock.advance(50);
    }
    const res = await keyInfo(key);
    expect(res.status).toBe(429);
    const error = await errorOf(res);
    expect(error.code).toBe("rate_limited");
    // The first request was made 30 s ago: it leaves the window in 30 s.
    expect(res.headers.get("Retry-After")).toBe("30");
    expect(error.details).toMatchObject({
      retryAfterSeconds: 30,
      limit: 600,
      windowSeconds: 60,
    });
    // Another key is not affected.
    expect((await keyInfo()).status).toBe(200);
    clock.advance(30_000);
    expect((await keyInfo(key)).status).toBe(200);
  });

  it("does not let twice the limit through across a window boundary", async () => {
    const key = t.keyWith(["files:read"]);
    clock.advance(59_000);
    for (let i = 0; i < 600; i++) await keyInfo(key);
    clock.advance(2_000);
    expect((await keyInfo(key)).status).toBe(429);
  });
});

describe("errors and headers", () => {
  it("answers unknown routes with 404 in the envelope", async () => {
    // Raw calls here and below: a typed client cannot name an unknown route or send broken JSON.
    const res = await t.call("GET", "/no/such/route");
    expect(res.status).toBe(404);
    expect(res.json.error).toMatchObject({ code: "not_found" });
  });

  it("answers malformed JSON with 400 validation_failed", async () => {
    const res = await t.call("POST", t.w("/files/folder"), {
      rawBody: "{not json",
      headers: { "Content-Type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
  });

  it("answers a body over 1 MiB with 400 validation_failed naming the body", async () => {
    const res = await t.client(filesRouter).workspaces[":workspaceId"].files.folder.$post({
      param: t.ws,
      json: { path: "big", padding: "x".repeat(1024 * 1024) } as never,
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({
      code: "validation_failed",
      message: "The request body is larger than 1 MiB",
      details: {
        issues: [
          { field: "body", code: "too_large", message: "The request body is larger than 1 MiB" },
        ],
      },
    });
  });

  it("hides internals of an unexpected error behind a request id", async () => {
    t.deps.db.exec("DROP TABLE api_keys");
    const res = await keyInfo();
    expect(res.status).toBe(500);
    const text = await res.text();
    const { error } = JSON.parse(text);
    expect(error.code).toBe("internal_error");
    expect(error.details.requestId).toBe(res.headers.get("X-Request-Id"));
    expect(text).not.toMatch(/at .*\.ts|SqliteError|api_keys/);
  });

  it("sends the security headers on every response", async () => {
    for (const res of [await keyInfo(), await t.call("GET", "/nope", { key: null })]) {
      const csp = res.headers.get("Content-Security-Policy") ?? "";
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(res.headers.get("Referrer-Policy")).toBe("no-referrer");
      expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    }
  });

  it("answers CORS only for configured origins, exposing the rate-limit headers", async () => {
    const c = await createTestApp({
      config: {
        corsOrigins: ["https://console.example"],
        rateLimit: { limit: 1, windowMs: 60_000 },
      },
    });
    try {
      const ok = await c.app.request("/v1/openapi.json", {
        headers: { Origin: "https://console.example" },
      });
      expect(ok.headers.get("Access-Control-Allow-Origin")).toBe("https://console.example");
      const other = await c.app.request("/v1/openapi.json", {
        headers: { Origin: "https://evil.example" },
      });
      expect(other.headers.get("Access-Control-Allow-Origin")).toBeNull();

      // A browser script reads only the headers listed: every one the limiter sends must be.
      const api = c.client(authRouter);
      const fromConsole = { headers: { Origin: "https://console.example" } };
      const allowed = await api.auth.key.$get(undefined, fromConsole);
      const refused = await api.auth.key.$get(undefined, fromConsole);
      expect(refused.status).toBe(429);
      const sent = [...allowed.headers.keys(), ...refused.headers.keys()].filter(
        (h) => h.startsWith("ratelimit-") || h === "retry-after",
      );
      expect(new Set(sent)).toEqual(
        new Set([
          "ratelimit-limit",
          "ratelimit-remaining",
          "ratelimit-reset",
          "ratelimit-policy",
          "retry-after",
        ]),
      );
      for (const res of [allowed, refused]) {
        const exposed = (res.headers.get("Access-Control-Expose-Headers") ?? "")
          .split(",")
          .map((h) => h.trim().toLowerCase());
        expect(exposed).toEqual(expect.arrayContaining(sent));
      }
    } finally {
      await c.close();
    }
  });
});

describe("openapi.json", () => {
  it("is a valid OpenAPI 3.1 document served without a key, listing scopes and errors per operation", async () => {
    const res = await t.call("GET", "/openapi.json", { key: null });
    expect(res.status).toBe(200);
    const doc = res.json;
    expect(doc.openapi).toBe("3.1.0");
    // Redocly's recommended rules: structure, operationId and summary on every operation, …
    const problems = await lintFromString({
      source: res.text,
      absoluteRef: "openapi.json",
      config: await createConfig({ extends: ["recommended"] }),
    });
    expect(
      problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`),
    ).toEqual([]);
    const operations = Object.values(
      doc.paths as Record<string, Record<string, OpenApiOperation>>,
    ).flatMap((p) => Object.values(p));
    expect(operations.length).toBeGreaterThan(0);
    for (const op of operations) {
      expect(op["x-scopes"]).toBeInstanceOf(Array);
      expect(op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      // The recipient page's operations need the share's link, not a key (a signed media
      // address is its own credential); a portal upload's own requests need its transfer token.
      if (uploadTokenOperations.includes(op.operationId))
        expect(op.security).toEqual([{ uploadToken: [] }]);
      else if (["Recipient", "Portal page", "Media"].some((tag) => op.tags?.includes(tag)))
        expect(op.security).toEqual([]);
      else expect(op.security.length).toBeGreaterThan(0);
      for (const code of ["400", "401", "403", "404", "429"])
        expect(op.responses[code]).toBeDefined();
    }
    expect(doc.paths["/auth/key"].get["x-consign-extension"]).toBe(true);
    expect(doc.components.securitySchemes.uploadToken).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
  });
});
