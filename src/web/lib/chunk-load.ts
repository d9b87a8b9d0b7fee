/**
 * A piece of the console's code that could not be downloaded: the network or the service is
 * down (or a newer build replaced the file). Each browser words the failed `import()` its own way;
 * Vite's own preload reports CSS.
 */
export function isChunkLoadError(error: unknown): boolean {
  return (
    error instanceof Error &&
    /^(Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS)/.test(
      error.message,
    )
  );
}

/**
 * TanStack Router answers a route chunk that failed to load with a full page reload, its cure for
 * a chunk a newer build removed. During an outage that reload swaps the console for the browser's
 * own error page. Vite reports every failed chunk (`vite:preloadError`) before the import rejects;
 * marking the router's once-per-tab reload as spent for that chunk leaves the error to the route's
 * error component, which offers Retry. The event's default (rethrowing) is kept: preventing it
 * would resolve the import with nothing.
 */
export function keepFailedChunksInPage(target: Window) {
  target.addEventListener("vite:preloadError", (event) => {
    target.sessionStorage.setItem(`tanstack_router_reload:${event.payload.message}`, "1");
  });
}
