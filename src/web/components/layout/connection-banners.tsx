import { useQueryClient } from "@tanstack/react-query";
import { HourglassIcon, WifiOffIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/web/components/ui/button";
import { selectThrottledUntil, useNetworkStore } from "@/web/stores/network-store";

/** Offline (with retry) and "the service asked us to slow down" notices above the page. */
export function ConnectionBanners() {
  const offline = useNetworkStore((s) => s.offline);
  const throttledUntil = useNetworkStore(selectThrottledUntil);
  const queryClient = useQueryClient();
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    if (!throttledUntil) return;
    // `now` is as old as the last notice; without this the countdown starts from then.
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [throttledUntil]);

  return (
    <>
      {offline && (
        <div
          role="alert"
          className="flex items-center gap-3 border-b border-destructive/40 bg-destructive/10 px-4 py-2 text-sm"
        >
          <WifiOffIcon className="size-4" aria-hidden="true" />
          <span className="flex-1">Can't reach the service. What you see may be out of date.</span>
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              useNetworkStore.getState().setOffline(false);
              void queryClient.refetchQueries({ type: "active" });
            }}
          >
            Retry
          </Button>
        </div>
      )}
      {throttledUntil && (
        <div
          role="status"
          className="flex items-center gap-3 border-b border-warning/40 bg-warning/10 px-4 py-2 text-sm"
        >
          <HourglassIcon className="size-4" aria-hidden="true" />
          <span>
            The service asked the console to slow down; retrying in{" "}
            {Math.max(0, Math.ceil((throttledUntil - now) / 1000))} s.
          </span>
        </div>
      )}
    </>
  );
}
