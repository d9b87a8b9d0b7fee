import { useState } from "react";
import { joinPath, nameProblem } from "@/contract/rules";
import { Button } from "@/web/components/ui/button";
import { Dialog, DialogContent, DialogFooter, DialogHeading } from "@/web/components/ui/dialog";
import { FormField } from "@/web/components/ui/form-field";
import { Input } from "@/web/components/ui/input";
import { useCreateFolderMutation } from "@/web/features/files/api/create-folder";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { toast } from "@/web/stores/toast-store";

/** The service names the whole path in its refusals; the person typed only the name. */
const fields = ["path"] as const;

/** Loaded when first opened (see NewFolderButton). */
export default function NewFolderDialog({ folder, onClose }: { folder: string; onClose(): void }) {
  const [name, setName] = useState("");
  const createFolder = useCreateFolderMutation();
  const trimmed = name.trim();
  const { onSubmit, pending, problems, setProblems } = useAsyncSubmit({
    fields,
    validate: () => ({ path: nameProblem(trimmed) ?? undefined }),
    run: () => createFolder.mutateAsync(joinPath(folder, trimmed)),
    onSuccess: ({ existed }) => {
      if (existed) {
        setProblems({ path: `A folder named “${trimmed}” already exists here.` });
        return;
      }
      onClose();
      toast({ title: `Created folder “${trimmed}”` });
    },
  });

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <DialogHeading title="New folder">
            In {folder ? `“${folder}”` : "the workspace root"}.
          </DialogHeading>
          <FormField label="Name" error={problems.path ?? problems.form}>
            {(control) => (
              <Input
                {...control}
                value={name}
                onChange={(e) => setName(e.target.value)}
                autoFocus
                maxLength={255}
              />
            )}
          </FormField>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {pending ? "Creating…" : "Create folder"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
