import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ManualClock } from "@/server/lib/clock";
import { authRouter } from "@/server/modules/auth/auth.index";
import { eventsRouter } from "@/server/modules/events/events.index";
import { expectBody, expectError } from "@/server/testing/expect-body";
import { createTestApp, type TestApp } from "@/server/testing/test-app";
import { createWorkspace, getWorkspace, listWorkspaces } from "./workspaces.repository";

let t: TestApp;
let clock: ManualClock;
beforeEach(async () => {
  clock = new ManualClock(Date.parse("2026-06-01T12:00:00Z"));
  t = await createTestApp({ clock, config: { workspaceName: "Studio" } });
});
afterEach(() => t.close());

describe("workspaces", () => {
  it("the first start made one workspace with the configured name, the one its key names", async () => {
    expect(listWorkspaces(t.deps.db)).toEqual([
      { id: t.workspaceId, name: "Studio", created_at: clock.now() },
    ]);
    const info = await expectBody(await t.client(authRouter).auth.key.$get(), 200);
    expect(info.workspace).toEqual({ id: t.workspaceId, name: "Studio" });
  });

  it("creates workspaces, looks one up by id, and lists them oldest first", () => {
    clock.advance(1000);
    const second = createWorkspace(t.deps.db, "Second", clock.now());
    expect(second).toEqual({ id: expect.any(String), name: "Second", created_at: clock.now() });
    expect(second.id).toMatch(/^[a-z0-9]{26}$/);
    expect(getWorkspace(t.deps.db, second.id)).toEqual(second);
    expect(getWorkspace(t.deps.db, t.workspaceId)?.name).toBe("Studio");
    expect(getWorkspace(t.deps.db, "01aaaaaaaaaaaaaaaaaaaaaaaa")).toBeUndefined();
    expect(listWorkspaces(t.deps.db).map((w) => w.name)).toEqual(["Studio", "Second"]);
  });

  it("keeps a key to its own workspace", async () => {
    const other = createWorkspace(t.deps.db, "Other", clock.now());
    const res = await t
      .client(eventsRouter)
      .workspaces[":workspaceId"].events.$get({ param: { workspaceId: other.id }, query: {} });
    expect((await expectError(res, 403)).details).toMatchObject({ reason: "workspace_mismatch" });
  });
});
