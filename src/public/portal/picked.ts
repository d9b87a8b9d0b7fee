import { filesInFolder } from "@/browser/walk-folder";
import { isSystemFile, type Picked } from "./portal-model";

/*
 * Files from the pickers and from a drop, each with its path under what was picked: a folder
 * keeps its structure (`shots/a/1.mov`). Files the operating system leaves in folders
 * (.DS_Store, Thumbs.db) are left out of folders; a file picked by itself always counts.
 */

export interface PickResult {
  picked: Picked[];
  /** System files left out of picked or dropped folders. */
  skipped: number;
}

function fromFolder(all: Picked[]): PickResult {
  const picked = all.filter((p) => !isSystemFile(p.file.name));
  return { picked, skipped: all.length - picked.length };
}

/** An `<input type="file">`'s files; a folder pick (`webkitdirectory`) names their paths. */
export function pickedFromInput(files: FileList | null): PickResult {
  const all = [...(files ?? [])].map((file) => ({
    file,
    path: file.webkitRelativePath || file.name,
  }));
  return all.some((p) => p.file.webkitRelativePath) ? fromFolder(all) : { picked: all, skipped: 0 };
}

/** A drag that carries files from the desktop. */
export const isFileDrag = (e: DragEvent) => e.dataTransfer?.types.includes("Files") ?? false;

/**
 * What was dropped. A drop's items can be read only during the drop event, so they are taken at
 * once and dropped folders walked afterwards.
 */
export async function pickedFromDrop(data: DataTransfer): Promise<PickResult> {
  const taken = [...data.items]
    .filter((item) => item.kind === "file")
    .map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  const results = await Promise.all(
    taken.map(async ({ entry, file }): Promise<PickResult> => {
      if (entry?.isDirectory)
        return fromFolder(await filesInFolder(entry as FileSystemDirectoryEntry));
      return { picked: file ? [{ file, path: file.name }] : [], skipped: 0 };
    }),
  );
  return {
    picked: results.flatMap((r) => r.picked),
    skipped: results.reduce((n, r) => n + r.skipped, 0),
  };
}
