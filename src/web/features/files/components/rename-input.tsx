import { useEffect, useId, useRef, useState } from "react";
import type { FileEntry } from "@/contract/files";
import { joinPath, nameProblem, parentOf } from "@/contract/rules";
import { useRenameFileMutation } from "@/web/features/files/api/rename-file";
import type { EntryRef } from "@/web/features/files/state/name-order";
import { ApiError, describeError } from "@/web/lib/api-client";

/** The name field of a row being renamed: Enter commits, Escape (or leaving it) cancels. */
export function RenameInput({
  entry,
  onDone,
}: {
  entry: FileEntry;
  onDone(renamed: EntryRef | null): void;
}) {
  const [value, setValue] = useState(entry.name);
  const [problem, setProblem] = useState<string | null>(null);
  const rename = useRenameFileMutation();
  const inputRef = useRef<HTMLInputElement>(null);
  const errorId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: selects the name once, when editing starts
  useEffect(() => {
    const input = inputRef.current;
    if (!input) return;
    input.focus();
    // Like Finder and Explorer: the name without its extension is selected, ready to retype.
    const dot = entry.type === "file" ? entry.name.lastIndexOf(".") : -1;
    input.setSelectionRange(0, dot > 0 ? dot : entry.name.length);
  }, []);

  const commit = () => {
    const newName = value.trim();
    if (newName === entry.name) return onDone(null);
    const invalid = nameProblem(newName);
    if (invalid) return setProblem(invalid);
    rename.mutate(
      { path: entry.path, newName },
      {
        onSuccess: () =>
          onDone({ path: joinPath(parentOf(entry.path), newName), type: entry.type }),
        onError: (error) => {
          const issue =
            error instanceof ApiError
              ? error.fieldIssues.find((i) => i.field === "newName")
              : undefined;
          setProblem(issue?.message ?? describeError(error));
          inputRef.current?.focus();
        },
      },
    );
  };

  return (
    <span className="relative flex min-w-0 flex-1">
      <input
        ref={inputRef}
        value={value}
        aria-label={`New name for ${entry.name}`}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? errorId : undefined}
        maxLength={255}
        readOnly={rename.isPending}
        spellCheck={false}
        onChange={(e) => {
          setValue(e.target.value);
          setProblem(null);
        }}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          } else if (e.key === "Escape") {
            e.preventDefault();
            onDone(null);
          }
        }}
        onBlur={() => !rename.isPending && onDone(null)}
        onClick={(e) => e.stopPropagation()}
        onDoubleClick={(e) => e.stopPropagation()}
        className="h-7 w-full min-w-0 rounded border border-input bg-background px-1.5 text-sm focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring aria-invalid:border-destructive"
      />
      {problem && (
        <span
          id={errorId}
          role="alert"
          className="absolute left-0 top-full z-30 mt-1 w-max max-w-80 whitespace-normal rounded-md border border-destructive/50 bg-card px-2 py-1 text-left text-xs text-destructive-text shadow-md"
        >
          {problem}
        </span>
      )}
    </span>
  );
}
