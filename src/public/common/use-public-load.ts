import { useCallback, useEffect, useState } from "preact/hooks";
import { ApiError } from "@/browser/api-error";
import type { PublicApi } from "./public-api";

export type PublicLoad<T> =
  | { state: "loading" }
  | { state: "ready"; value: T }
  | { state: "failed"; reason: string | null; message: string };

interface Opened {
  passwordRequired: boolean;
  title: string;
  workspaceName: string;
}

/**
 * What a public page opens (a share, a portal) as the service describes it now; `refresh` reads it
 * again. A refusal keeps its reason, and a 404 without one reads as `unknownReason`. The tab is
 * titled after what opened.
 */
export function usePublicLoad<T extends Opened>(
  api: Pick<PublicApi, "access" | "forget"> & { open: () => Promise<T> },
  unknownReason: string,
) {
  const [load, setLoad] = useState<PublicLoad<T>>({ state: "loading" });
  const refresh = useCallback(async () => {
    try {
      let value = await api.open();
      if (value.passwordRequired && api.access) {
        // A stored access token that no longer opens it (expired): ask again.
        api.forget();
        value = await api.open();
      }
      setLoad({ state: "ready", value });
    } catch (err) {
      setLoad({
        state: "failed",
        reason:
          err instanceof ApiError
            ? (err.reason ?? (err.status === 404 ? unknownReason : null))
            : null,
        message: (err as Error).message,
      });
    }
  }, [api, unknownReason]);

  useEffect(() => {
    if (load.state === "ready")
      document.title = `${load.value.title} · ${load.value.workspaceName}`;
  }, [load]);

  return { load, refresh };
}
