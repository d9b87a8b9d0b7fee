import { ShortcutsDialog } from "@/web/components/shortcuts-dialog";
import { queueKeymap } from "../queue-keymap";

export function QueueShortcutsDialog({ onClose }: { onClose(): void }) {
  return (
    <ShortcutsDialog
      keymap={queueKeymap}
      title="Review shortcuts"
      description="Anywhere on the queue but while typing. After a decision the next upload is active."
      className="sm:max-w-lg"
      onClose={onClose}
    />
  );
}
