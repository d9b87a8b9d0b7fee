import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type EventType, eventDataSchemas } from "@/contract/events";
import { type BulkSharesBody, SHARES_BULK_MAX } from "@/contract/shares";
import { ManualClock } from "@/server/lib/clock";
import { expectBody, expectError, okBody } from "@/server/testing/expect-body";
import { writeFile } from "@/server/testing/files-client";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { sharesRouter } from "./shares.index";

let t: TestApp;
const DAY = 86_400_000;
const NOW = Date.parse("2026-06-01T12:00:00Z");

beforeEach(async () => {
  t = await createTestApp({ clock: new ManualClock(NOW) });
  await writeFile(t, "Deliveries/a.mov", "a");
  await writeFile(t, "Deliveries/b.mov", "b");
});
afterEach(() => t.close());

const api = (key?: string) => t.client(sharesRouter, { key }).workspaces[":workspaceId"].shares;
const share = async (path = "Deliveries/a.mov") =>
  (await expectBody(await api().$post({ param: t.ws, json: { paths: [path] } }), 201)).id;
const bulk = (json: BulkSharesBody, key?: string) => api(key).bulk.$post({ param: t.ws, json });
const one = async (shareId: string) =>
  okBody(await api()[":shareId"].$get({ param: { ...t.ws, shareId } }));
const events = (type: EventType) =>
  (
    t.deps.db
      .prepare("SELECT data FROM events WHERE type = ? ORDER BY id")
      .pluck()
      .all(type) as string[]
  ).map((d) => eventDataSchemas[type].parse(JSON.parse(d)) as { shareId: string });
const UNKNOWN = "zzzzzzzzzzzzzzzzzzzz";

describe("bulk extend", () => {
  it("extends every listed share, records share.extended once each, and lists what it refused", async () => {
    const [a, b, c] = [await share(), await share("Deliveries/b.mov"), await share()];
    await okBody(await api()[":shareId"].$delete({ param: { ...t.ws, shareId: c } }));
    const result = await okBody(
      await bulk({ action: "extend", shareIds: [a, b, a, c, UNKNOWN], expiresInDays: 30 }),
    );
    expect(result.done).toEqual([a, b]);
    expect(result.failed).toEqual([
      { shareId: c, code: "revoked", message: expect.any(String) },
      { shareId: UNKNOWN, code: "not_found", message: expect.any(String) },
    ]);
    for (const id of [a, b])
      expect((await one(id)).expiresAt).toBe(new Date(NOW + 30 * DAY).toISOString());
    expect(events("share.extended").map((e) => e.shareId)).toEqual([a, b]);
    expect((await one(c)).status).toBe("revoked");
  });

  it("takes an expiry time, and a refused time leaves every share as it was", async () => {
    const a = await share();
    const before = (await one(a)).expiresAt;
    const at = new Date(NOW + 3 * DAY).toISOString();
    expect(
      (await okBody(await bulk({ action: "extend", shareIds: [a], expiresAt: at }))).done,
    ).toEqual([a]);
    expect((await one(a)).expiresAt).toBe(at);
    const past = new Date(NOW - DAY).toISOString();
    const refused = await okBody(await bulk({ action: "extend", shareIds: [a], expiresAt: past }));
    expect(refused.failed.map((f) => f.code)).toEqual(["in_the_past"]);
    expect((await one(a)).expiresAt).toBe(at);
    expect(before).not.toBe(at);
  });
});

describe("bulk revoke", () => {
  it("revokes every listed share in one request, share.revoked once each, again changes nothing", async () => {
    const [a, b] = [await share(), await share("Deliveries/b.mov")];
    const result = await okBody(await bulk({ action: "revoke", shareIds: [a, b, UNKNOWN] }));
    expect(result.done).toEqual([a, b]);
    expect(result.failed.map((f) => [f.shareId, f.code])).toEqual([[UNKNOWN, "not_found"]]);
    expect((await one(a)).status).toBe("revoked");
    expect((await one(b)).status).toBe("revoked");
    await okBody(await bulk({ action: "revoke", shareIds: [a, b] }));
    expect(events("share.revoked").map((e) => e.shareId)).toEqual([a, b]);
  });
});

describe("bounds and scope", () => {
  it("refuses an empty or too long list, a missing or stray expiry", async () => {
    const a = await share();
    const bad: BulkSharesBody[] = [
      { action: "revoke", shareIds: [] },
      { action: "revoke", shareIds: Array.from({ length: SHARES_BULK_MAX + 1 }, () => a) },
      { action: "extend", shareIds: [a] },
      { action: "extend", shareIds: [a], expiresInDays: 0 },
      { action: "extend", shareIds: [a], expiresInDays: 2, expiresAt: "2026-06-03T00:00:00Z" },
      { action: "revoke", shareIds: [a], expiresInDays: 2 },
    ];
    for (const json of bad)
      expect((await expectError(await bulk(json), 400)).code).toBe("validation_failed");
    expect((await one(a)).status).toBe("active");
    expect(events("share.revoked")).toEqual([]);
  });

  it("needs shares:write", async () => {
    const a = await share();
    for (const scope of ["receipts:read", "files:write"] as const) {
      const res = await bulk({ action: "revoke", shareIds: [a] }, t.keyWith([scope]));
      expect((await expectError(res, 403)).details.reason).toBe("missing_scope");
    }
    const writer = t.keyWith(["shares:write"]);
    expect((await okBody(await bulk({ action: "revoke", shareIds: [a] }, writer))).done).toEqual([
      a,
    ]);
  });
});
