/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { isFileDrag, type PickResult, pickedFromDrop, pickedFromInput } from "./picked";

// Phones (iOS Safari) cannot pick a folder: the button would open a plain file picker.
const canPickFolders =
  typeof document !== "undefined" && "webkitdirectory" in document.createElement("input");

/**
 * Choose files, choose a folder, or drop either: the buttons are the keyboard's way, the area
 * around them takes a drop. A drop that misses the area would make the browser open the file in
 * place of the page (and lose the form), so the window refuses file drops elsewhere.
 */
export function FilePickers({
  id,
  onPicked,
}: {
  id: string;
  onPicked: (result: PickResult) => void;
}) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    // Preact's JSX has no webkitdirectory attribute; the property does the same.
    if (folderInput.current) folderInput.current.webkitdirectory = true;
    const refuse = (e: DragEvent) => {
      if (isFileDrag(e)) e.preventDefault();
    };
    window.addEventListener("dragover", refuse);
    window.addEventListener("drop", refuse);
    return () => {
      window.removeEventListener("dragover", refuse);
      window.removeEventListener("drop", refuse);
    };
  }, []);

  function fromInput(input: HTMLInputElement) {
    onPicked(pickedFromInput(input.files));
    // The same file chosen again after being removed still fires a change.
    input.value = "";
  }

  async function drop(e: DragEvent) {
    if (!e.dataTransfer || !isFileDrag(e)) return;
    e.preventDefault();
    setOver(false);
    setError(null);
    try {
      onPicked(await pickedFromDrop(e.dataTransfer));
    } catch (err) {
      setError(`The dropped files could not be read: ${(err as Error).message}`);
    }
  }

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop is the pointer's way; the buttons inside are the keyboard's
    <div
      className={`drop${over ? " over" : ""}`}
      onDragOver={(e) => {
        if (!isFileDrag(e)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={drop}
    >
      <p>Drop files {canPickFolders ? "or folders " : ""}here, or choose them.</p>
      <div className="actions">
        <button type="button" id={`${id}-choose`} onClick={() => filesInput.current?.click()}>
          Choose files
        </button>
        {canPickFolders && (
          <button type="button" onClick={() => folderInput.current?.click()}>
            Choose a folder
          </button>
        )}
      </div>
      <input
        ref={filesInput}
        id={`${id}-files`}
        type="file"
        multiple
        hidden
        aria-label="Choose files"
        onChange={(e) => fromInput(e.currentTarget)}
      />
      <input
        ref={folderInput}
        id={`${id}-folder`}
        type="file"
        hidden
        aria-label="Choose a folder"
        onChange={(e) => fromInput(e.currentTarget)}
      />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
