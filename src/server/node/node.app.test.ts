import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { startTempService } from "@/server/testing/temp-service";
import { createTestApp } from "@/server/testing/test-app";
import { type NodeTest, startNodeTest } from "./node-testing";

let n: NodeTest | null = null;
afterEach(async () => {
  await n?.close();
  n = null;
});

describe("the node's HTTP surface", () => {
  it("is mounted in the service's own process at /node/v1, answering in the API's envelope", async () => {
    const { service, dir } = await startTempService("consign-node-mount-");
    try {
      const res = await fetch(`${service.url}/node/v1/uploads`, {
        method: "POST",
        headers: { "Tus-Resumable": "1.0.0", "Upload-Length": "1" },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toBe("application/json");
      expect(await res.json()).toMatchObject({
        error: { code: "unauthenticated", details: { reason: "missing" } },
      });
      const options = await fetch(`${service.url}/node/v1/uploads`, { method: "OPTIONS" });
      expect(options.status).toBe(204);
      expect(options.headers.get("tus-version")).toBe("1.0.0");
      expect(options.headers.get("tus-extension")).toContain("checksum");
      expect(options.headers.get("tus-checksum-algorithm")).toBe("sha256");
      // The API is still Hono's.
      expect((await fetch(`${service.url}/v1/openapi.json`)).status).toBe(200);
    } finally {
      await service.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("answers a browser's tus requests from an allowed origin and exposes the headers it reads", async () => {
    n = await startNodeTest({ config: { corsOrigins: ["https://console.example"] } });
    const preflight = await fetch(`${n.base}/uploads`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://console.example",
        "Access-Control-Request-Method": "PATCH",
      },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBe("https://console.example");
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Upload-Checksum");
    expect(preflight.headers.get("access-control-allow-headers")).toContain(
      "Consign-Content-Password",
    );
    const refused = await fetch(`${n.base}/uploads`, {
      method: "POST",
      headers: { Origin: "https://console.example", "Tus-Resumable": "1.0.0" },
    });
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://console.example");
    const exposed = refused.headers.get("access-control-expose-headers") ?? "";
    for (const h of ["Upload-Offset", "Location", "Consign-File-Sha256", "Retry-After"])
      expect(exposed).toContain(h);
    const other = await fetch(`${n.base}/uploads`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example" },
    });
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("lets the console connect to a node elsewhere (CSP connect-src)", async () => {
    const t = await createTestApp({
      config: { nodeUrl: "https://node1.example.com:8788/node/v1" },
    });
    try {
      const res = await t.call("GET", "/openapi.json", { key: null });
      expect(res.headers.get("Content-Security-Policy")).toContain(
        "connect-src 'self' https://node1.example.com:8788",
      );
    } finally {
      await t.close();
    }
  });
});
