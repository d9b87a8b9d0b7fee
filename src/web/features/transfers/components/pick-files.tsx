import { type ReactNode, useRef } from "react";
import { pickedFromInput } from "../picked-files";
import type { PickedFile } from "../transfer-model";

/**
 * Two hidden file inputs, files and a folder (`webkitdirectory`: each file keeps its path under
 * the folder), opened by whatever buttons `children` draws. `what` names the inputs.
 */
export function PickFiles({
  what,
  onPicked,
  children,
}: {
  what: string;
  onPicked(picked: PickedFile[]): void;
  children(open: { files(): void; folder(): void }): ReactNode;
}) {
  const files = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const take = (input: HTMLInputElement) => {
    const picked = pickedFromInput(input.files);
    // The same files can be chosen again later (a change event needs a different value).
    input.value = "";
    if (picked.length > 0) onPicked(picked);
  };
  return (
    <>
      <input
        ref={files}
        type="file"
        multiple
        hidden
        aria-label={`Files ${what}`}
        onChange={(e) => take(e.currentTarget)}
      />
      <input
        ref={folder}
        type="file"
        hidden
        aria-label={`Folder ${what}`}
        // React has no typed prop for it; the attribute is what browsers read.
        {...{ webkitdirectory: "" }}
        onChange={(e) => take(e.currentTarget)}
      />
      {children({ files: () => files.current?.click(), folder: () => folder.current?.click() })}
    </>
  );
}
