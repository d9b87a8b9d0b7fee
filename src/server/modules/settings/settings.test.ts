import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { LOGO_UPLOAD_MAX_BYTES } from "@/contract/settings-rules";
import { type TestApp, testAppEach } from "@/server/testing/test-app";

let t: TestApp;
testAppEach((app) => {
  t = app;
});

const image = (format: "png" | "jpeg", width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: "#c0392b" } })
    [format]()
    .toBuffer();
const putLogo = (bytes: Uint8Array, type: string, key = t.adminKey) =>
  t.app.request(t.w("/settings/logo"), {
    method: "PUT",
    headers: { Authorization: `Bearer ${key}`, "Content-Type": type },
    body: new Uint8Array(bytes),
  });

describe("workspace settings", () => {
  it("renames the workspace, trimmed and bounded", async () => {
    expect((await t.call("GET", t.w("/settings"))).json).toEqual({
      name: "My workspace",
      logo: null,
    });
    const renamed = await t.call("PATCH", t.w("/settings"), {
      body: { name: "  Northlight Post " },
    });
    expect([renamed.status, renamed.json.name]).toEqual([200, "Northlight Post"]);
    expect((await t.call("GET", t.w("/settings"))).json.name).toBe("Northlight Post");
    for (const name of ["   ", "x".repeat(101)]) {
      const bad = await t.call("PATCH", t.w("/settings"), { body: { name } });
      expect([bad.status, bad.json.error.code]).toEqual([400, "validation_failed"]);
    }
  });

  it("stores a logo re-encoded as a PNG within 600 × 200, serves it and removes it", async () => {
    const res = await putLogo(await image("jpeg", 1800, 300), "image/jpeg");
    expect(res.status).toBe(200);
    const { logo } = (await res.json()) as { logo: Record<string, unknown> };
    expect(logo).toMatchObject({ mimeType: "image/png", width: 600, height: 100 });
    const served = await t.app.request(t.w("/settings/logo"), {
      headers: { Authorization: `Bearer ${t.keyWith(["receipts:read"])}` },
    });
    expect([served.status, served.headers.get("content-type")]).toEqual([200, "image/png"]);
    const meta = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["png", 600, 100]);
    expect((await t.call("DELETE", t.w("/settings/logo"))).status).toBe(200);
    expect((await t.call("GET", t.w("/settings/logo"))).status).toBe(404);
    expect((await t.call("DELETE", t.w("/settings/logo"))).status).toBe(404);
  });

  it("refuses what is not a PNG or JPEG, one too large, and a key without shares:write", async () => {
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    for (const bytes of [gif, new TextEncoder().encode("not an image")]) {
      const res = await putLogo(bytes, "image/png");
      expect(res.status).toBe(400);
      expect(
        ((await res.json()) as { error: { details: { issues: { code: string }[] } } }).error.details
          .issues[0]!.code,
      ).toBe("not_an_image");
    }
    const huge = await putLogo(new Uint8Array(LOGO_UPLOAD_MAX_BYTES + 1), "image/png");
    expect(huge.status).toBe(400);
    expect(JSON.stringify(await huge.json())).toContain("too_large");
    const reader = await putLogo(
      await image("png", 10, 10),
      "image/png",
      t.keyWith(["receipts:read"]),
    );
    expect(reader.status).toBe(403);
    expect((await t.call("GET", t.w("/settings"))).json.logo).toBeNull();
  });
});
