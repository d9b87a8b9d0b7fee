import { create } from "zustand";

interface NetworkState {
  /** The last request could not reach the service at all. */
  offline: boolean;
  /**
   * The end (epoch ms) of every 429 wait in progress, one entry per waiting request: several
   * requests can be refused at once, each told its own Retry-After.
   */
  throttleWaits: readonly number[];
  setOffline(offline: boolean): void;
  /** Registers a wait that ends at `until`; the returned function ends it (once). */
  beginThrottle(until: number): () => void;
}

/** When the last wait in progress ends, or null when no request is waiting. */
export const selectThrottledUntil = (s: Pick<NetworkState, "throttleWaits">) =>
  s.throttleWaits.length > 0 ? Math.max(...s.throttleWaits) : null;

export const useNetworkStore = create<NetworkState>()((set) => ({
  offline: false,
  throttleWaits: [],
  setOffline: (offline) => set((s) => (s.offline === offline ? s : { offline })),
  beginThrottle(until) {
    set((s) => ({ throttleWaits: [...s.throttleWaits, until] }));
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      set((s) => {
        const i = s.throttleWaits.indexOf(until);
        return { throttleWaits: s.throttleWaits.filter((_, j) => j !== i) };
      });
    };
  },
}));
