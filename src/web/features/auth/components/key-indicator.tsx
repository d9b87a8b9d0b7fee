import { KeyRoundIcon, LogOutIcon } from "lucide-react";
import { Suspense, useState } from "react";
import { formatRelative } from "@/browser/format";
import { scopes } from "@/contract/rules";
import { lazyWithRetry } from "@/web/components/lazy-with-retry";
import { Button } from "@/web/components/ui/button";
import { useKeyInfoQuery } from "@/web/features/auth/api/get-key-info";
import { useSessionStore } from "@/web/stores/session-store";

const KeyPanel = lazyWithRetry(() => import("./key-panel"));

function scopeSummary(count: number): string {
  if (count === scopes.length) return "all scopes";
  return count === 1 ? "1 scope" : `${count} scopes`;
}

/** The workspace and the key's scope count and expiry, opening the key panel; and Sign out. */
export function KeyIndicator() {
  const session = useSessionStore((s) => s.session);
  const signOut = useSessionStore((s) => s.signOut);
  const { data: info } = useKeyInfoQuery();
  const [open, setOpen] = useState(false);
  const workspace = info?.workspace.name ?? session?.workspaceId ?? "";
  const expiresAt = info?.key.expiresAt;
  return (
    <>
      <Button
        variant="outline"
        className="max-w-40 px-3 sm:max-w-80 sm:px-4"
        onClick={() => setOpen(true)}
      >
        <KeyRoundIcon aria-hidden="true" />
        <span className="truncate">{workspace}</span>
        {info && (
          // Read out at every width; shown where the header has room for it.
          <span className="sr-only text-xs text-muted-foreground sm:not-sr-only">
            {scopeSummary(info.key.scopes.length)}
            {expiresAt && ` · expires ${formatRelative(expiresAt)}`}
          </span>
        )}
      </Button>
      <Button
        variant="ghost"
        size="icon"
        aria-label="Sign out"
        title="Sign out"
        onClick={() => signOut()}
      >
        <LogOutIcon aria-hidden="true" />
      </Button>
      {open && (
        <Suspense fallback={null}>
          <KeyPanel onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
