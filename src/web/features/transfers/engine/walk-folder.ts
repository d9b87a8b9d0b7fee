import type { PickedFile } from "../transfer-model";

/** Every file in a dropped folder, each with its path under the drop (`Shots/a/1.exr`). */
export async function walkFolder(folder: FileSystemDirectoryEntry): Promise<PickedFile[]> {
  const reader = folder.createReader();
  const entries: FileSystemEntry[] = [];
  // readEntries answers in batches (100 in Chromium) until it answers none.
  for (;;) {
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    entries.push(...batch);
  }
  const lists = await Promise.all(
    entries.map(async (entry): Promise<PickedFile[]> => {
      if (entry.isDirectory) return walkFolder(entry as FileSystemDirectoryEntry);
      const file = await new Promise<File>((resolve, reject) =>
        (entry as FileSystemFileEntry).file(resolve, reject),
      );
      return [{ file, relativePath: entry.fullPath.replace(/^\//, "") }];
    }),
  );
  return lists.flat();
}
