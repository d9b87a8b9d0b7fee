import { create } from "zustand";

interface NetworkState {
  /** The last request could not reach the service at all. */
  offline: boolean;
  /** The service answered 429; requests wait until this moment (epoch ms) and retry. */
  throttledUntil: number | null;
  setOffline(offline: boolean): void;
  setThrottledUntil(until: number | null): void;
}

export const useNetworkStore = create<NetworkState>()((set) => ({
  offline: false,
  throttledUntil: null,
  setOffline: (offline) => set((s) => (s.offline === offline ? s : { offline })),
  setThrottledUntil: (throttledUntil) => set({ throttledUntil }),
}));
