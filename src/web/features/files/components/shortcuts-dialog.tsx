import { Fragment } from "react";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { chordParts, filesKeymap } from "@/web/features/files/keymap";

/** The keymap as a table: alternatives joined by "or", the keys of one chord by "+". */
export function ShortcutsTable() {
  return (
    <table className="w-full text-sm">
      <thead className="sr-only">
        <tr>
          <th scope="col">Keys</th>
          <th scope="col">Action</th>
        </tr>
      </thead>
      <tbody>
        {filesKeymap.map((binding) => (
          <tr key={binding.description} className="border-b border-border last:border-0">
            <td className="py-1.5 pr-4 align-top">
              {binding.keys.map((chord, i) => (
                <Fragment key={chord}>
                  {i > 0 && <span className="text-muted-foreground"> or </span>}
                  <span className="whitespace-nowrap">
                    {chordParts(chord).map((part, j) => (
                      <Fragment key={part.label}>
                        {j > 0 && <span className="text-muted-foreground"> + </span>}
                        {part.isKey ? (
                          <kbd className="rounded border border-border bg-muted px-1.5 py-0.5 font-mono text-xs">
                            {part.label}
                          </kbd>
                        ) : (
                          <span className="text-muted-foreground">{part.label}</span>
                        )}
                      </Fragment>
                    ))}
                  </span>
                </Fragment>
              ))}
            </td>
            <td className="py-1.5 align-top text-muted-foreground">{binding.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Loaded when first opened with `?`. */
export default function ShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      {/* sm: so it wins over the primitive’s max-w-lg: cn() does not merge classes. */}
      <DialogContent className="sm:max-w-xl">
        <DialogHeader>
          <DialogTitle>Keyboard shortcuts</DialogTitle>
          <DialogDescription>With the file list focused.</DialogDescription>
        </DialogHeader>
        <ShortcutsTable />
      </DialogContent>
    </Dialog>
  );
}
