import { create } from "zustand";
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
  signOut(reason?: string): void;
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

export const useSessionStore = create<SessionState>()((set) => ({
  session: readStored(),
  pendingKey: null,
  signedOutReason: null,
  signIn(session) {
    store(session);
    set({ session, signedOutReason: null, pendingKey: null });
  },
  signOut(reason) {
    store(null);
    // Unfinished uploads keep their transfers' tokens; signing out forgets them too.
    localStorage.removeItem(UPLOADS_STORAGE_KEY);
    set({ session: null, signedOutReason: reason ?? null });
  },
  setPendingKey(pendingKey) {
    set({ pendingKey });
  },
}));

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
