import { CalendarPlusIcon, XCircleIcon } from "lucide-react";
import { useState } from "react";
import { formatCount } from "@/browser/format";
import type { Share } from "@/contract/shares";
import { ConfirmDialog } from "@/web/components/confirm-dialog";
import { Button } from "@/web/components/ui/button";
import { toast } from "@/web/stores/toast-store";
import { useBulkSharesMutation } from "../api/bulk-shares";
import { bulkReport } from "../bulk-report";
import { ExpiryDaysDialog } from "./extend-dialog";

const count = (n: number) => `${formatCount(n)} ${n === 1 ? "share" : "shares"}`;

/**
 * How many shares are picked, and Extend… and Revoke… for all of them: one request each time,
 * the outcome in a toast; the shares done leave the selection.
 */
export function BulkBar({ targets, onDone }: { targets: Share[]; onDone(ids: string[]): void }) {
  const bulk = useBulkSharesMutation();
  const [open, setOpen] = useState<"extend" | "revoke" | null>(null);
  const ids = targets.map((s) => s.id);
  const run = async (
    verb: "Extended" | "Revoked",
    body: Parameters<typeof bulk.mutateAsync>[0],
  ) => {
    const result = await bulk.mutateAsync(body);
    onDone(result.done);
    toast(bulkReport(verb, result, new Map(targets.map((s) => [s.id, s.title]))));
  };
  const none = targets.length === 0;
  return (
    <div className="flex min-h-12 flex-wrap items-center gap-2 border-b border-border px-4 py-2">
      <p className="mr-auto text-sm text-muted-foreground" aria-live="polite">
        {none ? "Select shares to extend or revoke them" : `${count(targets.length)} selected`}
      </p>
      <Button size="sm" variant="outline" disabled={none} onClick={() => setOpen("extend")}>
        <CalendarPlusIcon aria-hidden="true" />
        Extend…
      </Button>
      <Button size="sm" variant="destructive" disabled={none} onClick={() => setOpen("revoke")}>
        <XCircleIcon aria-hidden="true" />
        Revoke…
      </Button>
      {open === "extend" && (
        <ExpiryDaysDialog
          title={`Extend ${count(targets.length)}`}
          description="Each gets the same new expiry, counted from now; a revoked share stays revoked."
          run={(expiresInDays) =>
            run("Extended", { action: "extend", shareIds: ids, expiresInDays })
          }
          onClose={() => setOpen(null)}
        />
      )}
      {open === "revoke" && (
        <ConfirmDialog
          title={`Revoke ${count(targets.length)}?`}
          description="Every link of these shares stops working for good. The shares and their receipts stay."
          confirmLabel="Revoke"
          pendingLabel="Revoking…"
          destructive
          onConfirm={() => run("Revoked", { action: "revoke", shareIds: ids })}
          onClose={() => setOpen(null)}
        />
      )}
    </div>
  );
}
