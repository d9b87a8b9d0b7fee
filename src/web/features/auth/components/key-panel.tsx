import { formatDateTime } from "@/browser/format";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/web/components/ui/dialog";
import { useKeyInfoQuery } from "@/web/features/auth/api/get-key-info";
import { useSessionStore } from "@/web/stores/session-store";

/** Loaded on first open (see KeyIndicator): the workspace, the key's scopes and expiry. */
export default function KeyPanel({ onClose }: { onClose(): void }) {
  const session = useSessionStore((s) => s.session);
  const signOut = useSessionStore((s) => s.signOut);
  const { data: info, isPending } = useKeyInfoQuery();
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeading title={info?.workspace.name ?? "Workspace"} descriptionClassName="break-all">
          Workspace id {session?.workspaceId} · API {session?.baseUrl}
        </DialogHeading>
        <section aria-label="API key" className="grid gap-2 text-sm" data-testid="key-scopes">
          {isPending ? (
            <p className="text-muted-foreground">Loading…</p>
          ) : info ? (
            <>
              <p>
                {info.key.name ?? "Unnamed key"} ending in <code>{info.key.hint}</code>, created by{" "}
                {info.member.name} ({info.member.email})
              </p>
              <ul className="flex flex-wrap gap-1" aria-label="Scopes">
                {info.key.scopes.map((scope) => (
                  <li key={scope}>
                    <code className="rounded bg-muted px-1.5 py-0.5 text-xs">{scope}</code>
                  </li>
                ))}
              </ul>
              <p className="text-muted-foreground">
                {info.key.expiresAt
                  ? `Expires ${formatDateTime(info.key.expiresAt)}`
                  : "Never expires"}
              </p>
            </>
          ) : (
            <p className="text-muted-foreground">
              This service does not describe keys; each call checks the key's scopes.
            </p>
          )}
        </section>
        <DialogFooter>
          <Button variant="outline" onClick={() => signOut()}>
            Sign out
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
