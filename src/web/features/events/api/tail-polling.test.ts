import { focusManager, onlineManager, QueryClient, QueryObserver } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { TAIL_POLL_MS, tailPolling } from "./tail-polling";

let client: QueryClient;
beforeEach(() => {
  // As the console's client, refetching on focus whenever the data is stale (here at once).
  client = new QueryClient({
    defaultOptions: { queries: { staleTime: 0, refetchOnWindowFocus: true, retry: false } },
  });
  client.mount();
});
afterEach(() => {
  client.unmount();
  client.clear();
  focusManager.setFocused(undefined);
  onlineManager.setOnline(true);
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe("tailPolling", () => {
  it("polls while live, faster while behind, and not at all while paused", () => {
    const at = (hasMore: boolean) => ({ state: { data: { hasMore } } });
    expect(tailPolling(false).refetchInterval(at(false))).toBe(TAIL_POLL_MS);
    expect(tailPolling(false).refetchInterval(at(true))).toBe(200);
    expect(tailPolling(true).refetchInterval(at(true))).toBe(false);
  });

  it("keeps a paused tail from fetching when the window regains focus or the network returns", async () => {
    let fetches = 0;
    const options = (paused: boolean) => ({
      queryKey: ["tail"],
      queryFn: async () => {
        fetches++;
        return { hasMore: false };
      },
      ...tailPolling(paused),
    });
    const observer = new QueryObserver(client, options(false));
    const unsubscribe = observer.subscribe(() => {});
    await settle();
    expect(fetches).toBe(1);

    observer.setOptions(options(true));
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    onlineManager.setOnline(false);
    onlineManager.setOnline(true);
    await settle();
    expect(fetches).toBe(1);

    observer.setOptions(options(false));
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await settle();
    expect(fetches).toBe(2);
    onlineManager.setOnline(false);
    onlineManager.setOnline(true);
    await settle();
    expect(fetches).toBe(3);
    unsubscribe();
  });
});
