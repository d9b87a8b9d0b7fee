import { FileTextIcon, PlayIcon } from "lucide-react";
import { useId } from "react";
import type { MediaAnchor } from "@/contract/media";
import { baseName } from "@/contract/rules";
import { Button } from "@/web/components/ui/button";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { anchorLabel } from "@/web/lib/media-anchors";

/* A time-coded note's anchor in a list, and the note form's offer to attach one. */

/** The note's timecode or page, a button that opens the viewer there. */
export function AnchorButton({ anchor, onOpen }: { anchor: MediaAnchor; onOpen(): void }) {
  const label = anchorLabel(anchor);
  return (
    <Button
      size="sm"
      variant="outline"
      className="h-7 justify-self-start px-2 font-mono"
      onClick={onOpen}
      aria-label={`Open ${baseName(anchor.path)} at ${label}`}
      title={`${anchor.path} at ${label}`}
    >
      {anchor.page !== null ? <FileTextIcon aria-hidden="true" /> : <PlayIcon aria-hidden="true" />}
      {label}
    </Button>
  );
}

/** "Attach at 00:01:02:05 in clip.mov": where the viewer is (or was) in one of the files. */
export function AttachAnchor({
  anchor,
  fps,
  checked,
  onCheckedChange,
}: {
  anchor: MediaAnchor;
  fps: number | null;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
}) {
  const id = useId();
  return (
    <label htmlFor={id} className="flex min-w-0 items-center gap-2 text-sm">
      <NativeCheckbox
        id={id}
        checked={checked}
        onChange={(e) => onCheckedChange(e.target.checked)}
      />
      <span className="min-w-0 truncate">
        At <span className="font-mono">{anchorLabel(anchor, fps)}</span> in {baseName(anchor.path)}
      </span>
    </label>
  );
}
