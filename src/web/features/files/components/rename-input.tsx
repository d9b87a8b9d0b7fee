import { useEffect, useRef, useState } from "react";
import type { FileEntry } from "@/contract/files";
import { joinPath, nameProblem, parentOf } from "@/contract/rules";
import { FormField } from "@/web/components/ui/form-field";
import { useRenameFileMutation } from "@/web/features/files/api/rename-file";
import type { EntryRef } from "@/web/features/files/state/name-order";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";

const fields = ["newName"] as const;

/**
 * The field sits in the row, where the entry's name was: its label is for assistive technology
 * only, and its error floats below the row instead of pushing the rows apart.
 */
const inRow =
  "relative flex! min-w-0 flex-1 gap-0! *:data-[slot=label]:sr-only [&>[role=alert]]:absolute [&>[role=alert]]:left-0 [&>[role=alert]]:top-full [&>[role=alert]]:z-30 [&>[role=alert]]:mt-1 [&>[role=alert]]:w-max [&>[role=alert]]:max-w-80 [&>[role=alert]]:whitespace-normal [&>[role=alert]]:rounded-md [&>[role=alert]]:border [&>[role=alert]]:border-destructive/50 [&>[role=alert]]:bg-card [&>[role=alert]]:px-2 [&>[role=alert]]:py-1 [&>[role=alert]]:text-left [&>[role=alert]]:text-xs! [&>[role=alert]]:shadow-md";

/**
 * The name field of a row being renamed: Enter commits, Escape (or leaving it) cancels. Loaded
 * with the first rename (see NameOrEditor).
 */
export default function RenameInput({
  entry,
  onClose,
}: {
  entry: FileEntry;
  /** With the new name's entry after a rename; with nothing when cancelled. */
  onClose(renamed?: EntryRef): void;
}) {
  const [value, setValue] = useState(entry.name);
  const rename = useRenameFileMutation();
  const inputRef = useRef<HTMLInputElement>(null);
  const newName = value.trim();
  const { onSubmit, pending, problems, setProblems } = useAsyncSubmit({
    fields,
    validate: () => ({ newName: nameProblem(newName) ?? undefined }),
    run: () => rename.mutateAsync({ path: entry.path, newName }),
    onSuccess: () => onClose({ path: joinPath(parentOf(entry.path), newName), type: entry.type }),
  });
  const problem = problems.newName ?? problems.form;

  // biome-ignore lint/correctness/useExhaustiveDependencies: selects the name once, when editing starts
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    // Like Finder and Explorer: the name without its extension is selected, ready to retype.
    const dot = entry.type === "file" ? entry.name.lastIndexOf(".") : -1;
    input.setSelectionRange(0, dot > 0 ? dot : entry.name.length);
  }, []);

  return (
    <FormField label={`New name for ${entry.name}`} error={problem} className={inRow}>
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          value={value}
          maxLength={255}
          readOnly={pending}
          spellCheck={false}
          onChange={(e) => {
            setValue(e.target.value);
            setProblems({});
          }}
          onKeyDown={(e) => {
            e.stopPropagation();
            if (e.key === "Enter") {
              e.preventDefault();
              if (newName === entry.name) onClose();
              else void onSubmit();
            } else if (e.key === "Escape") {
              e.preventDefault();
              onClose();
            }
          }}
          onBlur={() => !pending && onClose()}
          onClick={(e) => e.stopPropagation()}
          onDoubleClick={(e) => e.stopPropagation()}
          className="h-7 w-full min-w-0 rounded border border-input bg-background px-1.5 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive"
        />
      )}
    </FormField>
  );
}
