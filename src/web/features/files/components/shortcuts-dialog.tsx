import { ShortcutsDialog } from "@/web/components/shortcuts-dialog";
import { filesKeymap } from "@/web/features/files/keymap";

/** Loaded when first opened with `?`. */
export default function FilesShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <ShortcutsDialog
      keymap={filesKeymap}
      title="Keyboard shortcuts"
      description="With the file list focused."
      // sm: so it wins over the primitive’s max-w-lg: cn() does not merge classes.
      className="sm:max-w-xl"
      onClose={onClose}
    />
  );
}
