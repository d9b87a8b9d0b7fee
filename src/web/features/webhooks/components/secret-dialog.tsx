import { EyeIcon, EyeOffIcon } from "lucide-react";
import { useState } from "react";
import { CopyButton } from "@/web/components/copy-button";
import { Alert, AlertDescription } from "@/web/components/ui/alert";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";

/** The signing secret, shown once after create or rotate: the service never returns it again. */
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
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{rotated ? "New signing secret" : "Endpoint created"}</DialogTitle>
          <DialogDescription>
            The signing secret for <span className="break-all font-mono">{url}</span>.
            {rotated && " The old secret no longer signs: the next attempt uses this one."}
          </DialogDescription>
        </DialogHeader>
        <Alert tone="warning">
          <AlertDescription className="text-foreground">
            Copy it now. It will not be shown again: to get another, rotate the secret.
          </AlertDescription>
        </Alert>
        <div className="flex items-center gap-2">
          <span className="sr-only">Signing secret:</span>
          <code
            data-testid="signing-secret"
            className="min-w-0 flex-1 break-all rounded-md border border-border bg-muted px-3 py-2 font-mono text-sm"
          >
            {revealed ? secret : `${secret.slice(0, 6)}${"•".repeat(32)}`}
          </code>
          <Button
            variant="outline"
            size="icon-sm"
            onClick={() => setRevealed((r) => !r)}
            aria-label={revealed ? "Hide secret" : "Reveal secret"}
            aria-pressed={revealed}
          >
            {revealed ? <EyeOffIcon aria-hidden="true" /> : <EyeIcon aria-hidden="true" />}
          </Button>
          <CopyButton text={secret} label="Copy secret" />
        </div>
        <DialogFooter>
          <Button onClick={onClose}>I have saved it</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
