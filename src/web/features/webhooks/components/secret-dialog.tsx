import { EyeIcon, EyeOffIcon } from "lucide-react";
import { useState } from "react";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { CopyButton } from "@/web/components/copy-button";
import { Alert, AlertDescription } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/web/components/ui/dialog";

/**
 * The signing secret, shown once after create or rotate: the service never returns it again, so
 * Escape, a click outside or × ask first unless it was copied (with the button, or selected and
 * copied once revealed). "I have saved it" closes at once: it says the secret is kept.
 */
export function SecretDialog({
  secret,
  url,
  rotated,
  onClose,
}: {
  secret: string;
  url: string;
  rotated: boolean;
  onClose(): void;
}) {
  const [revealed, setRevealed] = useState(false);
  const [copied, setCopied] = useState(false);
  const [asking, setAsking] = useState(false);
  return (
    <Dialog open onOpenChange={(open) => !open && (copied ? onClose() : setAsking(true))}>
      <DialogContent>
        <DialogHeading title={rotated ? "New signing secret" : "Endpoint created"}>
          The signing secret for <span className="break-all font-mono">{url}</span>.
          {rotated && " The old secret no longer signs: the next attempt uses this one."}
        </DialogHeading>
        <Alert tone="warning">
          <AlertDescription className="text-foreground">
            Copy it now. It will not be shown again: to get another, rotate the secret.
          </AlertDescription>
        </Alert>
        <div className="flex flex-wrap items-center gap-2">
          <span className="sr-only">Signing secret:</span>
          <code
            data-testid="signing-secret"
            onCopy={() => revealed && setCopied(true)}
            className="min-w-0 flex-[1_1_12rem] break-all rounded-md border border-border bg-muted px-3 py-2 font-mono text-sm"
          >
            {revealed ? secret : `${secret.slice(0, 6)}${"•".repeat(32)}`}
          </code>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="icon-sm"
              onClick={() => setRevealed((r) => !r)}
              aria-label={revealed ? "Hide secret" : "Reveal secret"}
              aria-pressed={revealed}
            >
              {revealed ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
            </Button>
            <CopyButton text={secret} label="Copy secret" onCopied={() => setCopied(true)} />
          </div>
        </div>
        <DialogFooter>
          <Button onClick={onClose}>I have saved it</Button>
        </DialogFooter>
      </DialogContent>
      {asking && (
        <ConfirmDialog
          title="You have not copied the secret. Close anyway?"
          description="It will not be shown again: receivers cannot verify deliveries without it, and the only way to get another is to rotate the secret."
          confirmLabel="Close anyway"
          destructive
          onConfirm={async () => onClose()}
          onClose={() => setAsking(false)}
        />
      )}
    </Dialog>
  );
}
