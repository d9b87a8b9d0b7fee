/* Walking a dropped folder, shared by the console's transfer engine and the portal page. */

/** Every file in a dropped folder, each with its path under the drop (`Shots/a/1.exr`). */
export async function filesInFolder(
  folder: FileSystemDirectoryEntry,
): Promise<{ file: File; path: string }[]> {
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
    entries.map(async (entry): Promise<{ file: File; path: string }[]> => {
      if (entry.isDirectory) return filesInFolder(entry as FileSystemDirectoryEntry);
      const file = await new Promise<File>((resolve, reject) =>
        (entry as FileSystemFileEntry).file(resolve, reject),
      );
      return [{ file, path: entry.fullPath.replace(/^\//, "") }];
    }),
  );
  return lists.flat();
}
