import { create } from "zustand";
import { type Channel, SESSION_CHANNEL, type SessionSync, startSessionSync } from "./session-sync";
import { UPLOADS_STORAGE_KEY } from "./uploads-seen-store";

/** What the console needs to call the service on someone's behalf. */
export interface Session {
  baseUrl: string;
  apiKey: string;
  workspaceId: string;
  /** true: kept in localStorage ("remember on this device"); false: sessionStorage only. */
  remember: boolean;
}

interface SessionState {
  session: Session | null;
  /** A key that arrived in the URL fragment, waiting for the connect screen to check it. */
  pendingKey: string | null;
  /** Why the console last went back to the connect screen (shown there). */
  signedOutReason: string | null;
  signIn(session: Session): void;
  /** Signs out in every tab of this browser; `thisTabOnly` leaves the others signed in. */
  signOut(reason?: string, thisTabOnly?: boolean): void;
  /**
   * Signed out in this tab: takes the session another open tab of this browser holds, if one
   * answers soon (session-sync.ts). Whether it did.
   */
  adoptFromOpenTabs(): Promise<boolean>;
  setPendingKey(key: string | null): void;
}

const STORAGE_KEY = "consign.session";

function readStored(): Session | null {
  let stores: Storage[];
  try {
    stores = [sessionStorage, localStorage];
  } catch {
    // No web storage here (a browser set to refuse site data throws on reaching it; Node has
    // none): nobody is signed in.
    return null;
  }
  for (const storage of stores) {
    const raw = storage.getItem(STORAGE_KEY);
    if (!raw) continue;
    try {
      const s = JSON.parse(raw) as Session;
      if (s.baseUrl && s.apiKey && s.workspaceId) return s;
    } catch {
      storage.removeItem(STORAGE_KEY);
    }
  }
  return null;
}

function store(session: Session | null) {
  sessionStorage.removeItem(STORAGE_KEY);
  localStorage.removeItem(STORAGE_KEY);
  if (session)
    (session.remember ? localStorage : sessionStorage).setItem(
      STORAGE_KEY,
      JSON.stringify(session),
    );
}

/** How long a new tab waits for an open one to hand over the session before asking for a key. */
const ADOPT_WAIT_MS = 300;

let sync: SessionSync | null = null;

/** Forgets the session in this tab only (another tab's sign-out, or this one's). */
function forget(reason: string | null) {
  store(null);
  // Unfinished uploads keep their transfers' tokens; signing out forgets them too.
  localStorage.removeItem(UPLOADS_STORAGE_KEY);
  useSessionStore.setState({ session: null, signedOutReason: reason });
}

export const useSessionStore = create<SessionState>()((set, get) => ({
  session: readStored(),
  pendingKey: null,
  signedOutReason: null,
  signIn(session) {
    store(session);
    set({ session, signedOutReason: null, pendingKey: null });
  },
  signOut(reason, thisTabOnly = false) {
    forget(reason ?? null);
    if (!thisTabOnly) sync?.announceSignOut(reason ?? null);
  },
  async adoptFromOpenTabs() {
    const session = await sync?.ask(ADOPT_WAIT_MS);
    if (!session || get().session) return get().session !== null;
    // Kept like this tab's own sign-in: in sessionStorage unless it was remembered already.
    get().signIn(session);
    return true;
  },
  setPendingKey(pendingKey) {
    set({ pendingKey });
  },
}));

if (typeof BroadcastChannel !== "undefined")
  sync = startSessionSync(new BroadcastChannel(SESSION_CHANNEL) as unknown as Channel, {
    current: () => useSessionStore.getState().session,
    onSignedOut: (reason) => {
      if (useSessionStore.getState().session) forget(reason);
    },
  });

/** The signed-in workspace, for components; "" only while signed out. */
export const useWorkspaceId = () => useSessionStore((s) => s.session?.workspaceId ?? "");

/** The signed-in workspace, outside React (mutation callbacks, loaders). */
export const currentWorkspaceId = () => useSessionStore.getState().session?.workspaceId ?? "";

/**
 * The sign-in link the service prints carries the key in the fragment (`#key=svc_sk_…`), which
 * browsers never send to a server. Take it out of the address bar at once so it does not stay
 * in history or get shared by copying the URL.
 */
export function takeKeyFromFragment(location: Location, history: History): string | null {
  const match = /(?:^#|&)key=([^&]+)/.exec(location.hash);
  if (!match) return null;
  history.replaceState(history.state, "", location.pathname + location.search);
  return decodeURIComponent(match[1] ?? "");
}
