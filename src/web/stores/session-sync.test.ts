import { afterEach, describe, expect, it } from "vitest";
import type { Session } from "./session-store";
import { type Channel, type SessionSync, startSessionSync } from "./session-sync";

const session: Session = {
  baseUrl: "http://127.0.0.1:8787",
  apiKey: "svc_sk_test",
  workspaceId: "ws1",
  remember: false,
};
const open: SessionSync[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

/** A tab: its own channel (as each tab has) and its own idea of the session. */
function tab(name: string, held: Session | null) {
  const state = { session: held, signedOut: [] as (string | null)[] };
  const sync = startSessionSync(new BroadcastChannel(name) as unknown as Channel, {
    current: () => state.session,
    onSignedOut(reason) {
      state.session = null;
      state.signedOut.push(reason);
    },
  });
  open.push(sync);
  return { state, sync };
}

describe("the session across tabs", () => {
  it("hands a new tab the session an open tab holds", async () => {
    tab("sync-a", session);
    tab("sync-a", null);
    const fresh = tab("sync-a", null);
    expect(await fresh.sync.ask(5_000)).toEqual(session);
  });

  it("answers null when no open tab is signed in", async () => {
    tab("sync-b", null);
    const fresh = tab("sync-b", null);
    expect(await fresh.sync.ask(50)).toBeNull();
  });

  it("signs every other tab out when one signs out", async () => {
    const one = tab("sync-c", session);
    const two = tab("sync-c", session);
    one.state.session = null;
    one.sync.announceSignOut("Signed out");
    await expect.poll(() => two.state.signedOut).toEqual(["Signed out"]);
    expect(two.state.session).toBeNull();
    expect(await tab("sync-c", null).sync.ask(50)).toBeNull();
  });
});
