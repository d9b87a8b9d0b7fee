import { Fragment } from "react";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { keyLabel, queueKeymap } from "../queue-keymap";

/** The queue's keymap as a table: the same table the keys run on. */
export function QueueShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="sm:max-w-lg">
        <DialogHeader>
          <DialogTitle>Review shortcuts</DialogTitle>
          <DialogDescription>
            Anywhere on the queue but while typing. After a decision the next upload is active.
          </DialogDescription>
        </DialogHeader>
        <table className="w-full text-sm">
          <thead className="sr-only">
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {queueKeymap.map((binding) => (
              <tr key={binding.command} className="border-b border-border last:border-0">
                <td className="py-1.5 pr-4 align-top whitespace-nowrap">
                  {binding.keys.map((key, i) => (
                    <Fragment key={key}>
                      {i > 0 && <span className="text-muted-foreground"> or </span>}
                      <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs">
                        {keyLabel(key)}
                      </kbd>
                    </Fragment>
                  ))}
                </td>
                <td className="py-1.5 align-top text-muted-foreground">{binding.description}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </DialogContent>
    </Dialog>
  );
}
