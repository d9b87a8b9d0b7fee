import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { fileShortcuts } from "./shortcuts";

/** Loaded when first opened with `?`. */
export default function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>With the file list focused.</DialogDescription>
        </DialogHeader>
        <table className="w-full text-sm">
          <thead className="sr-only">
            <tr>
              <th scope="col">Keys</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {fileShortcuts.map((s) => (
              <tr key={s.action} className="border-b border-border last:border-0">
                <td className="whitespace-nowrap py-1.5 pr-4">
                  {s.keys.map((k, i) => (
                    <span key={k}>
                      {i > 0 && <span className="px-1 text-muted-foreground">+</span>}
                      <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs">
                        {k}
                      </kbd>
                    </span>
                  ))}
                </td>
                <td className="py-1.5 text-muted-foreground">{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </DialogContent>
    </Dialog>
  );
}
