import { create } from "zustand";

interface NetworkState {
  /** The last request could not reach the service at all. */
  offline: boolean;
  /**
   * While any request waits out a 429: when the last of those waits ends (epoch ms), else null.
   * Several requests can be refused at once, each told its own Retry-After.
   */
  throttledUntil: number | null;
  /** The end of every wait in progress, one entry per waiting request. */
  throttleWaits: readonly number[];
  setOffline(offline: boolean): void;
  /** Registers a wait that ends at `until`; the returned function ends it (once). */
  beginThrottle(until: number): () => void;
}

const latest = (waits: readonly number[]) => (waits.length > 0 ? Math.max(...waits) : null);

export const useNetworkStore = create<NetworkState>()((set) => ({
  offline: false,
  throttledUntil: null,
  throttleWaits: [],
  setOffline: (offline) => set((s) => (s.offline === offline ? s : { offline })),
  beginThrottle(until) {
    set((s) => {
      const throttleWaits = [...s.throttleWaits, until];
      return { throttleWaits, throttledUntil: latest(throttleWaits) };
    });
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      set((s) => {
        const i = s.throttleWaits.indexOf(until);
        const throttleWaits = s.throttleWaits.filter((_, j) => j !== i);
        return { throttleWaits, throttledUntil: latest(throttleWaits) };
      });
    };
  },
}));
