import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { EventRecorder } from "@/server/modules/events/events.repository";
import { addMember, removeMember } from "@/server/modules/members/members.repository";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { revokeKey } from "./keys.repository";

let t: TestApp;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock });
});
afterEach(() => t.close());

describe("authentication", () => {
  it("describes the calling key", async () => {
    const res = await t.call("GET", "/auth/key");
    expect(res.status).toBe(200);
    expect(res.json.workspace.id).toBe(t.workspaceId);
    expect(res.json.key.scopes).toHaveLength(7);
    expect(res.json.key.hint).toBe(t.adminKey.slice(-4));
  });

  it.each([
    ["missing", null, undefined],
    ["malformed", null, { Authorization: "Basic abc" }],
    ["malformed", null, { Authorization: "Bearer svc_sk_short" }],
    ["malformed", null, { Authorization: `Bearer sk_${"a".repeat(40)}` }],
    ["unknown", `svc_sk_${"a".repeat(40)}`, undefined],
  ])("refuses a %s credential with 401 in the envelope", async (reason, key, headers) => {
    const res = await t.call("GET", "/auth/key", { key, headers });
    expect(res.status).toBe(401);
    expect(res.json.error).toMatchObject({ code: "unauthenticated", details: { reason } });
    expect(typeof res.json.error.message).toBe("string");
  });

  it("refuses an expired key", async () => {
    const key = t.keyWith(["files:read"], { expiresAt: clock.now() + 60_000 });
    expect((await t.call("GET", "/auth/key", { key })).status).toBe(200);
    clock.advance(60_000);
    const res = await t.call("GET", "/auth/key", { key });
    expect(res.status).toBe(401);
    expect(res.json.error.details.reason).toBe("expired");
  });

  it("refuses a revoked key at once", async () => {
    const key = t.keyWith(["files:read"]);
    const id = (await t.call("GET", "/auth/key", { key })).json.key.id;
    revokeKey(t.deps.db, id, clock.now());
    const res = await t.call("GET", "/auth/key", { key });
    expect(res.json.error.details.reason).toBe("revoked");
  });

  it("stops a key when its creator leaves the workspace (spec rule 4), and emits member events", async () => {
    const events = new EventRecorder(t.deps.db, clock);
    const member = addMember(
      t.deps.db,
      events,
      { workspaceId: t.workspaceId, email: "ed@example.com", name: "Ed", role: "admin" },
      clock.now(),
    );
    const key = t.keyWith(["files:read"], { memberId: member.id });
    expect((await t.call("GET", "/auth/key", { key })).status).toBe(200);
    removeMember(t.deps.db, events, member, clock.now());
    const res = await t.call("GET", "/auth/key", { key });
    expect(res.status).toBe(401);
    expect(res.json.error.details.reason).toBe("creator_removed");
    const types = t.deps.db.prepare("SELECT type FROM events ORDER BY id").pluck().all();
    expect(types.slice(-2)).toEqual(["member.joined", "member.removed"]);
  });

  it("answers 403 for another workspace id, whether or not it exists", async () => {
    for (const ws of ["01aaaaaaaaaaaaaaaaaaaaaaaa", "nope"]) {
      const res = await t.call("GET", `/workspaces/${ws}/files`);
      expect(res.status).toBe(403);
      expect(res.json.error).toMatchObject({
        code: "forbidden",
        details: { reason: "workspace_mismatch" },
      });
    }
  });

  it("answers 403 naming the scopes that would allow the call", async () => {
    const key = t.keyWith(["webhooks:manage"]);
    const res = await t.call("GET", t.w("/files"), { key });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatchObject({
      code: "forbidden",
      details: {
        reason: "missing_scope",
        requiredScopes: ["files:read"],
        keyScopes: ["webhooks:manage"],
      },
    });
    expect(res.json.error.message).toContain("files:read");
  });
});
