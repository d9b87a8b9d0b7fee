import { Fragment } from "react";
import { Dialog, DialogContent, DialogHeading } from "@/web/components/ui/dialog";
import { chordParts, type Keymap } from "@/web/lib/keymap/keymap";

/** A keymap as a table: alternatives joined by "or", the keys of one chord by "+". */
export function ShortcutsTable({ keymap }: { keymap: Keymap }) {
  return (
    <table className="w-full text-sm">
      <thead className="sr-only">
        <tr>
          <th scope="col">Keys</th>
          <th scope="col">Action</th>
        </tr>
      </thead>
      <tbody>
        {keymap.bindings.map((binding) => (
          <tr key={binding.description} className="border-b border-border last:border-0">
            <td className="py-1.5 pr-4 align-top">
              {binding.keys.map((chord, i) => (
                <Fragment key={chord}>
                  {i > 0 && <span className="text-muted-foreground"> or </span>}
                  <span className="whitespace-nowrap">
                    {chordParts(keymap, chord).map((part, j) => (
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

/** The `?` dialog of a page: its keymap, the same table its keys run on. */
export function ShortcutsDialog({
  keymap,
  title,
  description,
  className,
  onClose,
}: {
  keymap: Keymap;
  title: string;
  /** Where the keys work. */
  description: string;
  className?: string;
  onClose(): void;
}) {
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className={className}>
        <DialogHeading title={title}>{description}</DialogHeading>
        <ShortcutsTable keymap={keymap} />
      </DialogContent>
    </Dialog>
  );
}
