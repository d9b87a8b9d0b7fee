import type { Session } from "./session-store";

/*
 * The sign-in lasts for the browser session across tabs without the key being written to
 * localStorage: each tab keeps it in its own sessionStorage, a new tab of the same origin asks
 * the open ones for it over a BroadcastChannel (same origin only, nothing leaves the browser),
 * and a sign-out in one tab is announced to all. With no tab open the key is gone, as before.
 */

export const SESSION_CHANNEL = "consign.session";

type Message =
  | { type: "ask"; id: string }
  | { type: "answer"; id: string; session: Session }
  | { type: "signed-out"; reason: string | null };

/** The part of BroadcastChannel used here (a test passes real ones). */
export interface Channel {
  postMessage(message: Message): void;
  addEventListener(type: "message", listener: (event: MessageEvent<Message>) => void): void;
  close(): void;
}

export interface SessionSync {
  /** The session an open tab holds, or null when none answers within `timeoutMs`. */
  ask(timeoutMs: number): Promise<Session | null>;
  /** Tells every other tab to sign out. */
  announceSignOut(reason: string | null): void;
  close(): void;
}

export function startSessionSync(
  channel: Channel,
  tab: { current(): Session | null; onSignedOut(reason: string | null): void },
): SessionSync {
  const waiting = new Map<string, (session: Session) => void>();
  channel.addEventListener("message", ({ data }) => {
    if (data.type === "ask") {
      const session = tab.current();
      if (session) channel.postMessage({ type: "answer", id: data.id, session });
    } else if (data.type === "answer") {
      waiting.get(data.id)?.(data.session);
    } else if (data.type === "signed-out") {
      tab.onSignedOut(data.reason);
    }
  });
  return {
    ask(timeoutMs) {
      const id = crypto.randomUUID();
      return new Promise((resolve) => {
        const done = (session: Session | null) => {
          clearTimeout(timer);
          waiting.delete(id);
          resolve(session);
        };
        const timer = setTimeout(() => done(null), timeoutMs);
        waiting.set(id, done);
        channel.postMessage({ type: "ask", id });
      });
    },
    announceSignOut(reason) {
      channel.postMessage({ type: "signed-out", reason });
    },
    close: () => channel.close(),
  };
}
