import { useEffect, useState } from "react";
import type { Upload } from "@/web/features/transfers/state/uploads-store";
import { uploadLockName } from "./transfer-model";

const POLL_MS = 2_000;
const none: ReadonlySet<string> = new Set();

/**
 * Uploads another tab of this browser is running. This tab shows an upload it does not run as
 * waiting for its files; when its Web Lock is held all the same, another tab holds it (the
 * browser lets go of a closed tab's locks), and this tab must not offer to resume it too.
 */
export function useUploadsElsewhere(uploads: readonly Upload[]): ReadonlySet<string> {
  const [held, setHeld] = useState(none);
  const waiting = uploads
    .filter((u) => u.status === "waiting")
    .map((u) => u.transferId)
    .join(" ");
  useEffect(() => {
    if (!waiting || !navigator.locks) {
      setHeld(none);
      return;
    }
    let live = true;
    const look = () =>
      navigator.locks
        .query()
        .then(({ held: locks }) => {
          const names = new Set(locks?.map((l) => l.name));
          if (live)
            setHeld(new Set(waiting.split(" ").filter((id) => names.has(uploadLockName(id)))));
        })
        .catch(() => {});
    void look();
    const timer = setInterval(look, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [waiting]);
  return held;
}
