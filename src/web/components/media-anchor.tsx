import { FileTextIcon, PlayIcon } from "lucide-react";
import { useId, useState } from "react";
import type { MediaAnchor } from "@/contract/media";
import { baseName } from "@/contract/rules";
import { Button } from "@/web/components/ui/button";
import { NativeCheckbox } from "@/web/components/ui/native-checkbox";
import { anchorFromPosition, anchorLabel, type PositionLike } from "@/web/lib/media-anchors";

/* A time-coded note's anchor in a list, and a note form's offer to attach one. */

/** A note's text: something, and at most `max` characters. */
export const noteProblem = (body: string, max: number) =>
  !body.trim()
    ? "Write something first."
    : body.length > max
      ? `At most ${max} characters.`
      : undefined;

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
function AttachAnchor({
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

/**
 * A note form's offer to attach where the viewer is (or was) in a file the note may point into
 * (`mayPoint`): the anchor chosen (undefined unless ticked), a reset for after sending, and the
 * checkbox to show (null when the viewer showed none of those files).
 */
export function useAttachAnchor(
  position: (PositionLike & { fps: number | null }) | null,
  workspaceId: string,
  mayPoint: (path: string) => boolean,
) {
  const anchor = anchorFromPosition(position, workspaceId, mayPoint);
  const [attach, setAttach] = useState(false);
  return {
    chosen: attach && anchor ? anchor : undefined,
    reset: () => setAttach(false),
    control: anchor && (
      <div className="mr-auto min-w-0">
        <AttachAnchor
          anchor={anchor}
          fps={position?.fps ?? null}
          checked={attach}
          onCheckedChange={setAttach}
        />
      </div>
    ),
  };
}
