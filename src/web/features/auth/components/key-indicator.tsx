import { KeyRoundIcon, LogOutIcon } from "lucide-react";
import { lazy, Suspense, useState } from "react";
import { Button } from "@/web/components/ui/button";
import { useKeyInfoQuery } from "@/web/features/auth/api/get-key-info";
import { formatRelative } from "@/web/lib/format";
import { useSessionStore } from "@/web/stores/session-store";

const KeyPanel = lazy(() => import("./key-panel"));

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
      <Button variant="outline" className="max-w-80" onClick={() => setOpen(true)}>
        <KeyRoundIcon aria-hidden="true" />
        <span className="truncate">{workspace}</span>
        {info && (
          <span className="text-xs text-muted-foreground">
            {info.key.scopes.length === 7 ? "all scopes" : `${info.key.scopes.length} scopes`}
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
