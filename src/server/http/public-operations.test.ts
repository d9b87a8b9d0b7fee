import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

/*
 * Every operation anyone may call without a key (the recipient's and the portal sender's pages)
 * answers text no client can encode well (lone surrogates) and long emoji names with a 4xx in
 * the envelope, never a 5xx: each string of a request that would otherwise succeed is replaced
 * in turn, in the path, the query and the JSON body.
 */

const HIGH = "\uD800";
const EVIL = [
  HIGH,
  `a\uDFFFb`,
  // 80 characters ending in an emoji: a cut at 80 UTF-16 units splits its surrogate pair.
  `${"x".repeat(79)}😀`,
  "😀".repeat(130),
  "😀".repeat(3000),
];
/** In a URL a lone surrogate can only be sent as the UTF-8 its code unit would have (CESU-8). */
const inUrl = (s: string) =>
  s
    .split(/([\uD800-\uDFFF])/)
    .map((part) =>
      /^[\uD800-\uDFFF]$/.test(part)
        ? Buffer.from([
            0xed,
            0xa0 | ((part.charCodeAt(0) >> 6) & 0x1f),
            0x80 | (part.charCodeAt(0) & 0x3f),
          ])
            .toString("hex")
            .replace(/(..)/g, "%$1")
            .toUpperCase()
        : encodeURIComponent(part),
    )
    .join("");

interface Case {
  params: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Each string of a JSON value (and each object key) replaced by `evil`, one at a time. */
function variants(value: unknown, evil: string): unknown[] {
  if (typeof value === "string") return [evil];
  if (Array.isArray(value))
    return value.flatMap((item, i) =>
      variants(item, evil).map((v) => value.map((x, j) => (j === i ? v : x))),
    );
  if (value !== null && typeof value === "object")
    return Object.entries(value).flatMap(([key, item]) => [
      ...variants(item, evil).map((v) => ({ ...value, [key]: v })),
      Object.fromEntries(Object.entries(value).map(([k, x]) => [k === key ? evil : k, x])),
    ]);
  return [];
}

let t: TestApp;
const ops = new Map<string, { method: string; path: string; base: Case }>();

beforeAll(async () => {
  t = await createTestApp({ config: { unauthenticatedRateLimit: 1_000_000 } });
  await t.deps.files.writeFile(t.workspaceId, "Deliveries/reel1.mov", "reel");
  const share = await t.call("POST", t.w("/shares"), {
    body: { paths: ["Deliveries"], recipients: ["ana@example.com"], openLink: true },
  });
  expect(share.status, share.text).toBe(201);
  const token = (share.json.url as string).split("/").pop()!;
  const portal = await t.call("POST", t.w("/portals"), {
    body: {
      title: "Dailies",
      targetPath: "Incoming",
      fields: [{ key: "take", label: "Take" }],
      rules: { namePattern: "[a-z0-9.]+" },
    },
  });
  expect(portal.status, portal.text).toBe(201);
  const slug = portal.json.slug as string;
  const download = await t.call("POST", `/public/shares/${token}/downloads`, {
    key: null,
    body: { paths: ["Deliveries/reel1.mov"] },
  });
  expect(download.status, download.text).toBe(201);
  const upload = await t.call("POST", `/public/portals/${slug}/uploads`, {
    key: null,
    body: { files: [{ path: "a.mov", size: 1 }] },
  });
  expect(upload.status, upload.text).toBe(201);
  const transfer = { Authorization: `Bearer ${upload.json.transferSpec.token}` };
  const s = { token };
  const p = { slug };
  const u = { slug, uploadId: upload.json.uploadId as string };
  const add = (id: string, method: string, path: string, base: Case) =>
    ops.set(id, { method, path, base });
  add("getPublicShare", "GET", "/public/shares/{token}", { params: s });
  add("unlockShare", "POST", "/public/shares/{token}/unlock", {
    params: s,
    body: { password: "a guess" },
  });
  add("startShareDownload", "POST", "/public/shares/{token}/downloads", {
    params: s,
    body: { paths: ["Deliveries/reel1.mov"] },
  });
  add("completeShareDownload", "POST", "/public/shares/{token}/downloads/{transferId}/complete", {
    params: { token, transferId: download.json.transferId },
    body: { files: [{ path: "Deliveries/reel1.mov", sha256: "0".repeat(64) }] },
  });
  add("listPublicShareComments", "GET", "/public/shares/{token}/comments", {
    params: s,
    query: { after: "c1", limit: "5" },
  });
  add("addPublicShareComment", "POST", "/public/shares/{token}/comments", {
    params: s,
    body: { body: "Looks good", name: "Ana" },
  });
  add("getShareThumbnail", "GET", "/public/shares/{token}/thumbnail", {
    params: s,
    query: { path: "Deliveries/reel1.mov", access: "x" },
  });
  add("getSignedMedia", "GET", "/public/media/{token}", { params: { token: "r1.1.sig" } });
  add("getPublicPortal", "GET", "/public/portals/{slug}", { params: p });
  add("unlockPortal", "POST", "/public/portals/{slug}/unlock", {
    params: p,
    body: { password: "a guess" },
  });
  add("startPortalUpload", "POST", "/public/portals/{slug}/uploads", {
    params: p,
    body: {
      senderEmail: "ana@example.com",
      senderName: "Ana",
      message: "Day 2",
      fields: { take: "3" },
      files: [{ path: "shots/a.mov", size: 1 }],
    },
  });
  add("completePortalUpload", "POST", "/public/portals/{slug}/uploads/{uploadId}/complete", {
    params: u,
    headers: transfer,
  });
  add("getPortalUploadStatus", "GET", "/public/portals/{slug}/uploads/{uploadId}/status", {
    params: u,
    headers: { "Consign-Upload-Status": "a guess" },
  });
  add("cancelPortalUpload", "POST", "/public/portals/{slug}/uploads/{uploadId}/cancel", {
    params: u,
    body: { reason: "wrong files" },
    headers: transfer,
  });
});
afterAll(() => t.close());

describe("the public operations", () => {
  it("are the ones the OpenAPI document lists without a key", async () => {
    const doc = (await t.call("GET", "/openapi.json", { key: null })).json;
    const open: string[] = [];
    // No security at all, or only the portal upload's own token (complete and cancel).
    const keyless = (security: Record<string, unknown>[]) =>
      security.every((s) => Object.keys(s).every((scheme) => scheme === "uploadToken"));
    for (const item of Object.values(doc.paths) as Record<
      string,
      { security?: Record<string, unknown>[]; operationId: string }
    >[])
      for (const op of Object.values(item))
        if (Array.isArray(op.security) && keyless(op.security)) open.push(op.operationId);
    expect(open.sort()).toEqual([...ops.keys()].sort());
  });

  it("answer lone surrogates and long emoji names in any string with a 4xx envelope", async () => {
    const failures: string[] = [];
    let sent = 0;
    for (const [id, { method, path, base }] of ops) {
      const requests: Case[] = [];
      for (const evil of EVIL) {
        for (const name of Object.keys(base.params))
          requests.push({ ...base, params: { ...base.params, [name]: evil } });
        for (const query of variants(base.query ?? {}, evil))
          requests.push({ ...base, query: query as Record<string, string> });
        for (const body of variants(base.body, evil)) requests.push({ ...base, body });
      }
      for (const r of requests) {
        const url =
          path.replace(/\{(\w+)\}/g, (_, name: string) => inUrl(r.params[name]!)) +
          (r.query
            ? `?${Object.entries(r.query)
                .map(([k, v]) => `${inUrl(k)}=${inUrl(v)}`)
                .join("&")}`
            : "");
        const res = await t.call(method, url, {
          key: null,
          headers: r.headers,
          ...(r.body === undefined ? {} : { body: r.body }),
        });
        sent++;
        const enveloped = res.status < 400 || typeof res.json?.error?.code === "string";
        if (res.status >= 500 || !enveloped)
          failures.push(
            `${id} ${res.status} ${JSON.stringify(r).slice(0, 200)}: ${res.text.slice(0, 200)}`,
          );
      }
    }
    expect(sent).toBeGreaterThan(200);
    expect(failures).toEqual([]);
  });
});

describe("a portal upload start", () => {
  it("names the upload's folder after a sender whose 80th character is an emoji, cut whole", async () => {
    const slug = (await t.call("POST", t.w("/portals"), { body: { title: "Names" } })).json.slug;
    const res = await t.call("POST", `/public/portals/${slug}/uploads`, {
      key: null,
      body: { senderName: `${"x".repeat(79)}😀 and more`, files: [{ path: "a.mov", size: 1 }] },
    });
    expect(res.status, res.text).toBe(201);
    const folder = res.json.transferSpec.destinationRoot as string;
    expect(folder).toMatch(new RegExp(` ${"x".repeat(79)}😀 [0-9a-z]{6}$`, "u"));
  });

  it("whose sizes add up past what a number holds is refused in the envelope", async () => {
    const slug = (await t.call("POST", t.w("/portals"), { body: { title: "Big" } })).json.slug;
    const half = 2 ** 52;
    const res = await t.call("POST", `/public/portals/${slug}/uploads`, {
      key: null,
      body: {
        files: [
          { path: "a.mov", size: half },
          { path: "b.mov", size: half },
        ],
      },
    });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe("validation_failed");
  });
});

describe("a ZodError thrown by a service", () => {
  it("leaves as 400 validation_failed in the envelope, not a 500", async () => {
    const own = await createTestApp();
    try {
      // A route of this test only: the app's onError is what is under test, not a module.
      own.app.get("/v1/test/parse", () => {
        z.object({ name: z.string().max(3) }).parse({ name: "four" });
        throw new Error("unreachable");
      });
      const res = await own.call("GET", "/test/parse");
      expect(res.status, res.text).toBe(400);
      expect(res.json.error.code).toBe("validation_failed");
      expect(res.json.error.details.issues[0].field).toBe("name");
    } finally {
      await own.close();
    }
  });
});
