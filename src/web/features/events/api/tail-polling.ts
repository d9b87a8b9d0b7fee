export const TAIL_POLL_MS = 1_500;

/**
 * When the live tail asks the service again. A paused tail never does: the console's client-wide
 * refetch on window focus and on reconnect would otherwise move the list the person stopped to read.
 */
export function tailPolling(paused: boolean) {
  return {
    refetchInterval: (q: { state: { data?: { hasMore: boolean } } }) =>
      paused ? false : q.state.data?.hasMore ? 200 : TAIL_POLL_MS,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: !paused,
    refetchOnReconnect: !paused,
  };
}
