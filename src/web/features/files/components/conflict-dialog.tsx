import { useId, useState } from "react";
import { formatCount } from "@/browser/format";
import type { ConflictChoice, CreateOperationBody, OperationConflict } from "@/contract/operations";
import { baseName } from "@/contract/rules";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/web/components/ui/dialog";
import { FormError } from "@/web/components/ui/form-field";
import { NativeSelect } from "@/web/components/ui/native-select";
import {
  type ConflictChoices,
  choiceFor,
  resolutionMembers,
} from "@/web/features/files/state/conflict-resolutions";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";

const choiceLabels: Record<ConflictChoice, string> = {
  keepBoth: "Keep both",
  overwrite: "Overwrite",
  skip: "Skip",
};
const choices = Object.keys(choiceLabels) as ConflictChoice[];

const describeExisting = (c: OperationConflict) =>
  c.existingType === c.type
    ? `A ${c.existingType} with this name is already there`
    : `A ${c.existingType} is in the way of this ${c.type}`;

/**
 * Loaded when a move or copy is refused for conflicts: one choice for every conflict, or one per
 * item (keep both gives the new item a free name, overwrite replaces what is there, skip leaves
 * the item where it is), then the job is started again with them.
 */
export default function ConflictDialog({
  body,
  conflicts,
  onStart,
  onClose,
}: {
  body: CreateOperationBody;
  conflicts: OperationConflict[];
  onStart(body: CreateOperationBody): Promise<unknown>;
  onClose(): void;
}) {
  const [picked, setPicked] = useState<ConflictChoices>({ all: "keepBoth", each: {} });
  const allId = useId();
  const { onSubmit, pending, problems } = useAsyncSubmit({
    fields: [],
    run: () => onStart({ ...body, ...resolutionMembers(conflicts, picked) }),
  });
  const verb = body.kind === "move" ? "move" : "copy";
  const count = conflicts.length;

  return (
    <Dialog open onOpenChange={(open) => !open && !pending && onClose()}>
      <DialogContent className="sm:max-w-2xl">
        <form onSubmit={onSubmit} className="grid min-w-0 gap-4" noValidate>
          <DialogHeading
            title={
              <>
                {count === 1 ? "1 item is" : `${formatCount(count)} items are`} already at the
                destination
              </>
            }
          >
            Nothing was moved or copied yet. Choose what the {verb} does with{" "}
            {count === 1 ? "it" : "each"}.
          </DialogHeading>
          <div className="grid gap-1.5">
            <label htmlFor={allId} className="text-sm font-medium">
              For every conflict
            </label>
            <NativeSelect
              id={allId}
              value={picked.all ?? "each"}
              onChange={(e) => {
                const value = e.target.value;
                setPicked((p) => ({
                  ...p,
                  all: value === "each" ? null : (value as ConflictChoice),
                }));
              }}
            >
              {choices.map((c) => (
                <option key={c} value={c}>
                  {choiceLabels[c]} (all)
                </option>
              ))}
              <option value="each">Choose for each item</option>
            </NativeSelect>
          </div>
          <ul
            aria-label="Conflicts"
            className="max-h-72 divide-y divide-border overflow-y-auto rounded-md border border-border"
          >
            {conflicts.map((c) => (
              <ConflictRow
                key={c.path}
                conflict={c}
                choice={choiceFor(picked, c.path)}
                disabled={picked.all !== null}
                onChange={(choice) =>
                  setPicked((p) => ({ ...p, each: { ...p.each, [c.path]: choice } }))
                }
              />
            ))}
          </ul>
          <FormError>{problems.form}</FormError>
          <DialogFooter>
            <Button type="button" variant="outline" disabled={pending} onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={pending}>
              {pending ? "Starting…" : `Continue the ${verb}`}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function ConflictRow({
  conflict,
  choice,
  disabled,
  onChange,
}: {
  conflict: OperationConflict;
  choice: ConflictChoice;
  disabled: boolean;
  onChange(choice: ConflictChoice): void;
}) {
  const name = baseName(conflict.destinationPath);
  return (
    <li className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
      <div className="min-w-0 flex-1 basis-48">
        <p className="truncate text-sm font-medium" title={conflict.destinationPath}>
          {name}
        </p>
        <p className="truncate text-xs text-muted-foreground">{describeExisting(conflict)}</p>
      </div>
      <NativeSelect
        aria-label={`What to do with ${name}`}
        value={choice}
        disabled={disabled}
        onChange={(e) => onChange(e.target.value as ConflictChoice)}
      >
        {choices.map((c) => (
          <option key={c} value={c}>
            {choiceLabels[c]}
          </option>
        ))}
      </NativeSelect>
    </li>
  );
}
