/** Saves `blob` as a download named `name`, through a Blob URL. */
export function saveFile(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken the Blob by the next task; the URL can go.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
