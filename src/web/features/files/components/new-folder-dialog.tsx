import { type FormEvent, useId, useState } from "react";
import { joinPath, nameProblem } from "@/contract/rules";
import { Button } from "@/web/components/ui/button";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "@/web/components/ui/dialog";
import { Input } from "@/web/components/ui/input";
import { Label } from "@/web/components/ui/label";
import { useCreateFolderMutation } from "@/web/features/files/api/create-folder";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";

/** Loaded when first opened (see NewFolderButton). */
export default function NewFolderDialog({ folder, onClose }: { folder: string; onClose(): void }) {
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const createFolder = useCreateFolderMutation();
  const ids = { name: useId(), error: useId() };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const trimmed = name.trim();
    const invalid = nameProblem(trimmed);
    if (invalid) {
      setProblem(invalid);
      return;
    }
    setProblem(null);
    createFolder.mutate(joinPath(folder, trimmed), {
      onSuccess: ({ existed }) => {
        if (existed) {
          setProblem(`A folder named “${trimmed}” already exists here.`);
          return;
        }
        onClose();
        toast({ title: `Created folder “${trimmed}”` });
      },
      onError: (error) => setProblem(describeError(error)),
    });
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <form onSubmit={onSubmit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>New folder</DialogTitle>
            <DialogDescription>
              In {folder ? `“${folder}”` : "the workspace root"}.
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={ids.name}>Name</Label>
            <Input
              id={ids.name}
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoFocus
              maxLength={255}
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? ids.error : undefined}
            />
            {problem && (
              <p id={ids.error} role="alert" className="text-sm text-destructive-text">
                {problem}
              </p>
            )}
          </div>
          <DialogFooter>
            <Button type="submit" disabled={createFolder.isPending}>
              {createFolder.isPending ? "Creating…" : "Create folder"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
