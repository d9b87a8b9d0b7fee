import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";

/* The outbox holds share recipients' personal links, which are credentials: each scope reads its own mail only. */

let t: TestApp;
let shareLink = "";
let shareId = "";
beforeEach(async () => {
  t = await createTestApp();
  await writeFile(t, "Out/a.mov", "alpha");
  const share = await t.call("POST", t.w("/shares"), {
    body: { paths: ["Out"], recipients: ["ana@example.com"] },
  });
  shareLink = share.json.recipientLinks[0].url;
  shareId = share.json.id;
  const portal = await t.call("POST", t.w("/portals"), {
    body: { title: "Dailies", inviteEmails: ["bo@example.com"] },
  });
  expect([share.status, portal.status]).toEqual([201, 201]);
});
afterEach(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: the outbox page as JSON
const outbox = async (key: string, query = ""): Promise<any[]> => {
  const res = await t.call("GET", t.w(`/outbox${query}`), { key });
  expect(res.status).toBe(200);
  return res.json.items;
};

describe("outbox scopes", () => {
  it("shows a portals:write key its portal mail and no share mail or personal link", async () => {
    const key = t.keyWith(["portals:write"]);
    const items = await outbox(key);
    expect(items.map((m) => m.to)).toEqual(["bo@example.com"]);
    expect(items.every((m) => m.portalId && !m.shareId)).toBe(true);
    expect(await outbox(key, `?shareId=${shareId}`)).toEqual([]);
    const all = JSON.stringify(await outbox(key, "?limit=100"));
    expect(all).not.toContain(shareLink);
    expect(all).not.toContain("/s/");
  });

  it("shows a shares:write key its share mail with the personal link, and no portal mail", async () => {
    const items = await outbox(t.keyWith(["shares:write"]));
    expect(items.map((m) => [m.to, m.link])).toEqual([["ana@example.com", shareLink]]);
  });

  it("shows a key holding both scopes every message", async () => {
    const items = await outbox(t.keyWith(["shares:write", "portals:write"]));
    expect(items.map((m) => m.to).sort()).toEqual(["ana@example.com", "bo@example.com"]);
  });

  it("refuses a receipts:read key: it reads receipts, not the credentials in the mail", async () => {
    const res = await t.call("GET", t.w("/outbox"), { key: t.keyWith(["receipts:read"]) });
    expect([res.status, res.json.error.code]).toEqual([403, "forbidden"]);
  });
});
