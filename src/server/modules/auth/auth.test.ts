import { describe, expect, it } from "vitest";
import { scopes } from "@/contract/common";
import type { ManualClock } from "@/server/lib/clock";
import { eventsRouter } from "@/server/modules/events/events.index";
import { addMember, removeMember } from "@/server/modules/members/members.repository";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { authRouter } from "./auth.index";
import { revokeKey } from "./keys.repository";

let t: TestApp;
let clock: ManualClock;
testAppEach((app, c) => {
  t = app;
  clock = c;
});

const keyInfo = (key?: string | null, headers?: Record<string, string>) =>
  // Per-call options replace the client's headers (its key) rather than merging with them.
  headers
    ? t.client(authRouter, { key }).auth.key.$get({}, { headers })
    : t.client(authRouter, { key }).auth.key.$get();
const events = (workspaceId: string, key?: string) =>
  t
    .client(eventsRouter, { key })
    .workspaces[":workspaceId"].events.$get({ param: { workspaceId }, query: {} });

describe("authentication", () => {
  it("describes the calling key", async () => {
    const info = await expectBody(await keyInfo(), 200);
    expect(info.workspace.id).toBe(t.workspaceId);
    expect(info.key.scopes).toEqual([...scopes]);
    expect(info.key.hint).toBe(t.adminKey.slice(-4));
    expect(info.member).toMatchObject({ id: t.adminId, role: "admin" });
  });

  it.each([
    ["missing", null, undefined],
    ["malformed", null, { Authorization: "Basic abc" }],
    ["malformed", null, { Authorization: "Bearer svc_sk_short" }],
    ["malformed", null, { Authorization: `Bearer sk_${"a".repeat(40)}` }],
    ["unknown", `svc_sk_${"a".repeat(40)}`, undefined],
  ])("refuses a %s credential with 401 in the envelope", async (reason, key, headers) => {
    const error = await expectError(await keyInfo(key, headers), 401);
    expect(error).toMatchObject({ code: "unauthenticated", details: { reason } });
    expect(typeof error.message).toBe("string");
  });

  it("refuses an expired key", async () => {
    const key = t.keyWith(["files:read"], { expiresAt: clock.now() + 60_000 });
    expect((await keyInfo(key)).status).toBe(200);
    clock.advance(60_000);
    expect((await expectError(await keyInfo(key), 401)).details).toEqual({ reason: "expired" });
  });

  it("refuses a revoked key at once", async () => {
    const key = t.keyWith(["files:read"]);
    const { id } = (await expectBody(await keyInfo(key), 200)).key;
    revokeKey(t.deps.db, id, clock.now());
    expect((await expectError(await keyInfo(key), 401)).details).toEqual({ reason: "revoked" });
  });

  it("stops a key when its creator leaves the workspace (spec rule 4), and emits member events", async () => {
    const member = addMember(
      t.deps.db,
      t.deps.events,
      { workspaceId: t.workspaceId, email: "ed@example.com", name: "Ed", role: "admin" },
      clock.now(),
    );
    const key = t.keyWith(["files:read"], { memberId: member.id });
    expect((await keyInfo(key)).status).toBe(200);
    removeMember(t.deps.db, t.deps.events, member, clock.now());
    const error = await expectError(await keyInfo(key), 401);
    expect(error.details).toEqual({ reason: "creator_removed" });
    const types = t.deps.db.prepare("SELECT type FROM events ORDER BY seq").pluck().all();
    expect(types.slice(-2)).toEqual(["member.joined", "member.removed"]);
  });

  it("answers 403 for another workspace id, whether or not it exists", async () => {
    for (const ws of ["01aaaaaaaaaaaaaaaaaaaaaaaa", "nope"]) {
      const error = await expectError(await events(ws), 403);
      expect(error).toMatchObject({ code: "forbidden", details: { reason: "workspace_mismatch" } });
    }
  });

  it("answers 403 naming the scopes that would allow the call", async () => {
    const key = t.keyWith(["files:read"]);
    const error = await expectError(await events(t.workspaceId, key), 403);
    expect(error).toMatchObject({
      code: "forbidden",
      details: {
        reason: "missing_scope",
        requiredScopes: ["webhooks:manage"],
        keyScopes: ["files:read"],
      },
    });
    expect(error.message).toContain("webhooks:manage");
  });
});
