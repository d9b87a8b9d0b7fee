import { QueryCache, QueryClient } from "@tanstack/react-query";
import { shouldRetry } from "./api-client";

export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache(),
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // Each query sets its own staleTime where it matters; this is the floor.
        staleTime: 10_000,
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
}
