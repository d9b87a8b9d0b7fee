import fs from "node:fs";
import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { startTempService } from "@/server/testing/temp-service";

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function start(env: NodeJS.ProcessEnv = {}) {
  const { service, boot, dir } = await startTempService("consign-address-limit-", { env });
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => service.stop());
  return { url: service.url, key: boot.adminKey };
}

/** A GET over a real connection from `from` (every 127.x address is this host's loopback). */
function get(url: string, o: { from?: string; headers?: Record<string, string> } = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; code?: string }>(
    (resolve, reject) => {
      http
        .get(
          url,
          { localAddress: o.from ?? "127.0.0.1", headers: o.headers, agent: false },
          (res) => {
            let text = "";
            res.on("data", (d) => {
              text += d;
            });
            res.on("end", () =>
              resolve({
                status: res.statusCode!,
                headers: res.headers,
                code: text ? JSON.parse(text).error?.code : undefined,
              }),
            );
          },
        )
        .on("error", reject);
    },
  );
}

describe("requests without a valid key", () => {
  it("are limited to 120 a minute per client address, with the rate-limit headers and envelope", async () => {
    const { url, key } = await start();
    for (let i = 0; i < 120; i++) {
      const res = await get(`${url}/v1/auth/key`, {
        // Missing, malformed and unknown keys all count.
        headers: [{}, { Authorization: "Bearer nope" }, { Authorization: `Bearer ${key}x` }][
          i % 3
        ]!,
      });
      expect(res.status).toBe(401);
      expect(res.headers["ratelimit-remaining"]).toBe(String(119 - i));
      expect(res.headers["ratelimit-policy"]).toBe("120;w=60");
    }
    const refused = await get(`${url}/v1/auth/key`);
    expect(refused.status).toBe(429);
    expect(refused.code).toBe("rate_limited");
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
    // openapi.json needs no key, so it is counted the same way.
    expect((await get(`${url}/v1/openapi.json`)).status).toBe(429);

    // A valid key is held to its own allowance, not its address's.
    const keyed = await get(`${url}/v1/auth/key`, { headers: { Authorization: `Bearer ${key}` } });
    expect(keyed.status).toBe(200);
    expect(keyed.headers["ratelimit-limit"]).toBe("600");
    // Another address has its whole allowance; X-Forwarded-For is not trusted by default.
    expect((await get(`${url}/v1/auth/key`, { from: "127.0.0.2" })).status).toBe(401);
    expect(
      (await get(`${url}/v1/auth/key`, { headers: { "X-Forwarded-For": "203.0.113.9" } })).status,
    ).toBe(429);
  });

  it("are counted by the address the proxy forwarded when TRUST_PROXY is set", async () => {
    const { url } = await start({ RATE_LIMIT_UNAUTHENTICATED_PER_MINUTE: "2", TRUST_PROXY: "1" });
    const via = (client: string) =>
      get(`${url}/v1/auth/key`, { headers: { "X-Forwarded-For": `10.9.9.9, ${client}` } });
    expect((await via("203.0.113.9")).status).toBe(401);
    expect((await via("203.0.113.9")).status).toBe(401);
    expect((await via("203.0.113.9")).status).toBe(429);
    // The entry the proxy appended decides; what the client wrote before it does not.
    expect((await via("203.0.113.10")).status).toBe(401);
  });
});
