/** @jsxImportSource preact */
import { useState } from "preact/hooks";
import { ApiError } from "@/browser/api-error";
import { formatBytes, formatCount } from "@/browser/format";
import { baseName, parentOf, thumbnailMimeTypes } from "@/contract/rules";
import type { PublicShare } from "@/contract/share-public";
import type { LinkApi } from "./share-api";
import { downloadFiles, downloadZip, type FileState } from "./share-download";
import { PreviewDialog, previewKind } from "./share-preview";

type File = NonNullable<PublicShare["files"]>[number];

/**
 * Rows drawn at first and per "Show more": a share of 10,000 files drew every row before the
 * list appeared (2.4 s in bench:shares); selecting and downloading all still covers every file.
 */
const ROWS_PER_STEP = 200;

function stateText(s: FileState | undefined, size: number) {
  switch (s?.phase) {
    case undefined:
      return "";
    case "waiting":
      return "Waiting";
    case "downloading":
      return `Downloading ${size ? Math.floor((s.received / size) * 100) : 100}%`;
    case "checking":
      return "Checking…";
    case "verified":
      return "Verified";
    case "unverified":
      return "Not verified: the bytes received differ from the ones shared";
    case "failed":
      return `Failed: ${s.message}`;
  }
}

/** One file: its checkbox, name (with a thumbnail for an image), state, size and Download. */
function SharedFileRow({
  api,
  file: f,
  state,
  selected,
  busy,
  onToggle,
  onDownload,
  onPreview,
}: {
  api: LinkApi;
  file: File;
  state: FileState | undefined;
  selected: boolean;
  busy: boolean;
  onToggle: () => void;
  onDownload: () => void;
  /** Absent for a file the page cannot preview. */
  onPreview?: () => void;
}) {
  return (
    <tr>
      <td className="check">
        <input
          type="checkbox"
          aria-label={`Select ${f.path}`}
          checked={selected}
          onChange={onToggle}
        />
      </td>
      <td>
        <div className="name">
          {f.mime && thumbnailMimeTypes.includes(f.mime) && (
            <img
              className="thumb"
              src={api.thumbnailUrl(f.path)}
              alt=""
              loading="lazy"
              width={40}
              height={40}
              // A file named as an image that is not one has no thumbnail: no broken icon.
              onError={(e) => {
                e.currentTarget.hidden = true;
              }}
            />
          )}
          <div>
            <span className="path">{baseName(f.path)}</span>
            {f.path.includes("/") && <span className="folder">{parentOf(f.path)}</span>}
          </div>
        </div>
        <span className={`state ${state?.phase ?? ""}`} aria-live="polite" data-testid="file-state">
          {stateText(state, f.size)}
        </span>
      </td>
      <td className="size">{formatBytes(f.size)}</td>
      <td className="one">
        {onPreview && (
          <button
            type="button"
            className="preview-open"
            aria-label={`Preview ${f.path}`}
            onClick={onPreview}
          >
            Preview
          </button>
        )}
        <button
          type="button"
          disabled={busy}
          aria-label={`Download ${f.path}`}
          onClick={onDownload}
        >
          Download
        </button>
      </td>
    </tr>
  );
}

/**
 * The share's files (as shared) with their sizes: download one, a selection or all (several as
 * one ZIP, `{zipName}.zip`). Each file is hashed as it arrives (in a ZIP, each entry) and shows
 * Verified once the service has matched the hash.
 * Images show a small thumbnail (rendered by the service, not downloaded through the node).
 */
export function SharedFileList({
  api,
  files,
  zipName,
  onClosed,
}: {
  api: LinkApi;
  files: File[];
  zipName: string;
  onClosed: () => void;
}) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [states, setStates] = useState<Record<string, FileState>>({});
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(ROWS_PER_STEP);
  const [error, setError] = useState<string | null>(null);
  const [previewing, setPreviewing] = useState<File | null>(null);
  const total = files.reduce((n, f) => n + f.size, 0);

  async function download(chosen: File[]) {
    setBusy(true);
    setError(null);
    const onState = (path: string, state: FileState) =>
      setStates((prev) => ({ ...prev, [path]: state }));
    try {
      if (chosen.length > 1) await downloadZip(api, chosen, `${zipName}.zip`, onState);
      else
        await downloadFiles(
          api,
          chosen.map((f) => f.path),
          onState,
        );
    } catch (err) {
      // The share closed meanwhile (expired, revoked, used up): the page says which.
      if (err instanceof ApiError && err.reason?.startsWith("share_")) onClosed();
      else setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  const toggle = (path: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (!next.delete(path)) next.add(path);
      return next;
    });
  const allSelected = selected.size === files.length && files.length > 0;

  return (
    <section className="card" aria-labelledby="files-title">
      <div className="bar">
        <h2 id="files-title">Files</h2>
        <span className="meta">{formatBytes(total)} in all</span>
      </div>
      <div className="actions">
        <button type="button" className="primary" disabled={busy} onClick={() => download(files)}>
          Download all{files.length > 1 ? " (ZIP)" : ""}
        </button>
        <button
          type="button"
          disabled={busy || selected.size === 0}
          onClick={() => download(files.filter((f) => selected.has(f.path)))}
        >
          Download selected ({selected.size})
        </button>
      </div>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <table className="files">
        <thead>
          <tr>
            <th scope="col" className="check">
              <input
                type="checkbox"
                aria-label="Select all files"
                checked={allSelected}
                onChange={() =>
                  setSelected(allSelected ? new Set() : new Set(files.map((f) => f.path)))
                }
              />
            </th>
            <th scope="col">Name</th>
            <th scope="col" className="size">
              Size
            </th>
            <th scope="col">
              <span className="sr-only">Download</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {files.slice(0, shown).map((f) => (
            <SharedFileRow
              key={f.path}
              api={api}
              file={f}
              state={states[f.path]}
              selected={selected.has(f.path)}
              busy={busy}
              onToggle={() => toggle(f.path)}
              onDownload={() => download([f])}
              onPreview={previewKind(f.mime) ? () => setPreviewing(f) : undefined}
            />
          ))}
        </tbody>
      </table>
      {previewing && (
        <PreviewDialog
          api={api}
          path={previewing.path}
          kind={previewKind(previewing.mime)!}
          onClose={() => setPreviewing(null)}
        />
      )}
      {shown < files.length && (
        <div className="actions">
          <button type="button" onClick={() => setShown((n) => n + ROWS_PER_STEP)}>
            Show {Math.min(ROWS_PER_STEP, files.length - shown)} more ({formatCount(shown)} of{" "}
            {formatCount(files.length)} shown)
          </button>
        </div>
      )}
    </section>
  );
}
