import { describe, expect, it } from "vitest";
import type { ManualClock } from "@/server/lib/clock";
import { authRouter } from "@/server/modules/auth/auth.index";
import { eventsRouter } from "@/server/modules/events/events.index";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { type TestApp, testAppEach } from "@/server/testing/test-app";
import { addMember, findMember, getMember, listMembers, removeMember } from "./members.repository";

let t: TestApp;
let clock: ManualClock;
testAppEach((app, c) => {
  t = app;
  clock = c;
});

const add = (email: string, name = "Ed", role: "admin" | "member" = "member") =>
  addMember(
    t.deps.db,
    t.deps.events,
    { workspaceId: t.workspaceId, email, name, role },
    clock.now(),
  );
const events = async () =>
  (
    await expectBody(
      await t
        .client(eventsRouter)
        .workspaces[":workspaceId"].events.$get({ param: t.ws, query: { limit: "1000" } }),
      200,
    )
  ).events;

describe("members", () => {
  it("adds a member with a lowercased email and records member.joined with it", async () => {
    clock.advance(1000);
    const ed = add("Ed@Example.COM", "Ed", "admin");
    expect(ed).toMatchObject({
      workspace_id: t.workspaceId,
      email: "ed@example.com",
      name: "Ed",
      role: "admin",
      joined_at: clock.now(),
      removed_at: null,
    });
    expect(getMember(t.deps.db, ed.id)).toEqual(ed);
    const joined = (await events()).at(-1);
    expect(joined).toMatchObject({
      type: "member.joined",
      data: {
        member: {
          id: ed.id,
          email: "ed@example.com",
          name: "Ed",
          role: "admin",
          joinedAt: new Date(clock.now()).toISOString(),
        },
      },
    });
  });

  it("lists active members in the order they joined, and finds one by id or any-case email", () => {
    clock.advance(1000);
    const b = add("b@example.com");
    clock.advance(1000);
    const a = add("a@example.com");
    expect(listMembers(t.deps.db, t.workspaceId).map((m) => m.id)).toEqual([t.adminId, b.id, a.id]);
    expect(findMember(t.deps.db, t.workspaceId, a.id)?.id).toBe(a.id);
    expect(findMember(t.deps.db, t.workspaceId, "A@Example.com")?.id).toBe(a.id);
    expect(findMember(t.deps.db, t.workspaceId, "nobody@example.com")).toBeUndefined();
    expect(findMember(t.deps.db, "01aaaaaaaaaaaaaaaaaaaaaaaa", a.id)).toBeUndefined();
  });

  it("refuses a second active member with the same email, recording nothing", async () => {
    add("ed@example.com");
    const before = (await events()).length;
    expect(() => add("ED@example.com")).toThrow(/UNIQUE/);
    expect(listMembers(t.deps.db, t.workspaceId)).toHaveLength(2);
    expect(await events()).toHaveLength(before);
  });

  it("removes a member: gone from the list, member.removed recorded, their keys stop at once", async () => {
    const ed = add("ed@example.com");
    const key = t.keyWith(["webhooks:manage"], { memberId: ed.id });
    const keyInfo = () => t.client(authRouter, { key }).auth.key.$get();
    expect((await keyInfo()).status).toBe(200);

    clock.advance(5000);
    removeMember(t.deps.db, t.deps.events, ed, clock.now());
    expect(listMembers(t.deps.db, t.workspaceId).map((m) => m.id)).toEqual([t.adminId]);
    expect(findMember(t.deps.db, t.workspaceId, "ed@example.com")).toBeUndefined();
    expect(getMember(t.deps.db, ed.id)?.removed_at).toBe(clock.now());
    expect((await events()).at(-1)).toMatchObject({
      type: "member.removed",
      data: { member: { id: ed.id, removedAt: new Date(clock.now()).toISOString() } },
    });
    expect((await expectError(await keyInfo(), 401)).details).toEqual({
      reason: "creator_removed",
    });
    // Keys made by others keep working.
    expect((await t.client(authRouter).auth.key.$get()).status).toBe(200);

    // The address is free again; the new member is another member, with keys of their own.
    const again = add("ed@example.com");
    expect(again.id).not.toBe(ed.id);
    expect((await expectError(await keyInfo(), 401)).details).toEqual({
      reason: "creator_removed",
    });
  });

  it("records nothing when the change that added a member rolls back", async () => {
    const before = await events();
    expect(() =>
      t.deps.db.transaction(() => {
        add("ed@example.com");
        throw new Error("the change failed");
      })(),
    ).toThrow("the change failed");
    expect(findMember(t.deps.db, t.workspaceId, "ed@example.com")).toBeUndefined();
    expect(await events()).toEqual(before);
  });
});
