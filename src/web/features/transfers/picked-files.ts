import type { PickedFile } from "./transfer-model";

/** A drag that carries files from the desktop (not rows dragged within the console). */
export const isFileDrag = (dataTransfer: DataTransfer) => dataTransfer.types.includes("Files");

/** Files from an `<input type="file">`; a folder pick (`webkitdirectory`) keeps each file's path. */
export const pickedFromInput = (files: FileList | null): PickedFile[] =>
  [...(files ?? [])].map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));

/**
 * What was dropped, read at once: a drop's items can only be read during the drop event, so
 * this takes them synchronously and returns a promise for the files of dropped folders, which
 * are walked afterwards (`webkitGetAsEntry`), each file keeping its path under the drop.
 */
export function pickedFromDrop(dataTransfer: DataTransfer): Promise<PickedFile[]> {
  const taken = [...dataTransfer.items]
    .filter((item) => item.kind === "file")
    .map((item) => ({ entry: item.webkitGetAsEntry?.() ?? null, file: item.getAsFile() }));
  return Promise.all(
    taken.map(async ({ entry, file }): Promise<PickedFile[]> => {
      if (entry?.isDirectory)
        return (await import("./engine/start")).walkFolder(entry as FileSystemDirectoryEntry);
      return file ? [{ file, relativePath: file.webkitRelativePath || file.name }] : [];
    }),
  ).then((lists) => lists.flat());
}
