/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import type { ProxyEntry, ProxyStatus } from "@/contract/media";
import { parseWaveform } from "@/contract/media-rules";
import { baseName, thumbnailMimeTypes } from "@/contract/rules";
import type { LinkApi } from "./share-api";

/*
 * The recipient's preview before downloading: a light player on the browser's own elements (no
 * framework), fed by the file's proxies through signed addresses. Not a download: nothing counts.
 */

type Kind = "video" | "audio" | "pdf" | "image";

/** What the page previews, by the file's type as shared. */
export function previewKind(mime: string | null): Kind | null {
  if (!mime) return null;
  if (mime.startsWith("video/")) return "video";
  if (mime.startsWith("audio/")) return "audio";
  if (mime === "application/pdf") return "pdf";
  return thumbnailMimeTypes.includes(mime) ? "image" : null;
}

const POLL_MS = 2000;
const ready = (e: ProxyEntry | undefined) => (e?.status === "ready" && e.url ? e.url : null);
const busy = (s: ProxyStatus) =>
  s.proxies.some((p) => p.status === "queued" || p.status === "rendering");

/** The file's proxies, asked again every 2 s while some render and the tab is in view. */
function useProxies(api: LinkApi, path: string) {
  const [status, setStatus] = useState<ProxyStatus | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let timer = 0;
    let stopped = false;
    const load = async () => {
      if (document.hidden) {
        timer = window.setTimeout(load, POLL_MS);
        return;
      }
      try {
        const s = await api.proxies(path);
        if (stopped) return;
        setStatus(s);
        if (busy(s)) timer = window.setTimeout(load, POLL_MS);
      } catch (err) {
        if (!stopped) setError((err as Error).message);
      }
    };
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api, path]);
  return { status, error };
}

function Waiting({ entry, what }: { entry: ProxyEntry | undefined; what: string }) {
  if (entry?.status === "failed")
    return (
      <p className="error">{`${what} could not be prepared: ${entry.error ?? "unknown reason"}`}</p>
    );
  const pct = entry?.progress != null ? ` (${Math.round(entry.progress * 100)}%)` : "";
  return <p role="status">{`${what} is being prepared${pct}…`}</p>;
}

/** The waveform proxy drawn once at the canvas's width: each column the pairs' min and max. */
function Waveform({ url }: { url: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    let live = true;
    void fetch(url)
      .then((r) => r.arrayBuffer())
      .then((bytes) => {
        const peaks = parseWaveform(bytes);
        const c = canvas.current;
        const g = c?.getContext("2d");
        if (!live || !peaks || !c || !g) return;
        const pairs = peaks.pairs.length / 2;
        const mid = c.height / 2;
        g.fillStyle = getComputedStyle(c).color;
        for (let x = 0; x < c.width; x++) {
          let lo = 0;
          let hi = 0;
          const end = Math.max(
            Math.floor(((x + 1) * pairs) / c.width),
            Math.floor((x * pairs) / c.width) + 1,
          );
          for (let i = Math.floor((x * pairs) / c.width); i < Math.min(end, pairs); i++) {
            lo = Math.min(lo, peaks.pairs[2 * i]!);
            hi = Math.max(hi, peaks.pairs[2 * i + 1]!);
          }
          g.fillRect(x, mid - (hi / 128) * mid, 1, Math.max(1, ((hi - lo) / 128) * mid));
        }
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [url]);
  return (
    <canvas
      ref={canvas}
      className="waveform"
      width={640}
      height={80}
      role="img"
      aria-label="Waveform"
    />
  );
}

/** Audio plays its original through a download the page never reports: not counted, not kept. */
function AudioPreview({ api, path, status }: { api: LinkApi; path: string; status: ProxyStatus }) {
  const [src, setSrc] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .startDownload([path])
      .then(({ transferSpec: spec }) =>
        setSrc(`${spec.node.files}?${new URLSearchParams({ path, token: spec.token })}`),
      )
      .catch((err: Error) => setError(err.message));
  }, [api, path]);
  const wave = ready(status.proxies.find((p) => p.kind === "waveform"));
  return (
    <div className="player">
      {wave && <Waveform url={wave} />}
      {error && <p className="error">{error}</p>}
      {/* biome-ignore lint/a11y/useMediaCaption: a delivery's audio has no caption track. */}
      {src && <audio controls src={src} data-testid="preview-audio" />}
    </div>
  );
}

function PdfPreview({ status, name }: { status: ProxyStatus; name: string }) {
  const [page, setPage] = useState(0);
  const pages = status.proxies.filter((p) => p.kind === "page");
  const entry = pages.find((p) => p.page === page);
  const url = ready(entry);
  return (
    <div className="player">
      {url ? (
        <img src={url} alt={`Page ${page + 1} of ${name}`} />
      ) : (
        <Waiting entry={entry} what={`Page ${page + 1}`} />
      )}
      <div className="actions">
        <button type="button" disabled={page === 0} onClick={() => setPage(page - 1)}>
          Previous page
        </button>
        <span aria-live="polite">{`Page ${page + 1} of ${status.pageCount ?? pages.length}`}</span>
        <button type="button" disabled={page >= pages.length - 1} onClick={() => setPage(page + 1)}>
          Next page
        </button>
      </div>
    </div>
  );
}

function MediaPreview({ api, path, kind }: { api: LinkApi; path: string; kind: Kind }) {
  const name = baseName(path);
  const { status, error } = useProxies(api, path);
  if (error) return <p className="error">{error}</p>;
  if (!status) return <p role="status">Loading…</p>;
  if (kind === "audio") return <AudioPreview api={api} path={path} status={status} />;
  if (kind === "pdf") return <PdfPreview status={status} name={name} />;
  const proxy = status.proxies.find((p) => p.kind === "proxy720");
  const url = ready(proxy);
  if (!url) return <Waiting entry={proxy} what="The preview" />;
  const poster = ready(status.proxies.find((p) => p.kind === "contact_sheet"));
  return (
    // biome-ignore lint/a11y/useMediaCaption: a delivery's preview has no caption track.
    <video
      className="player"
      controls
      playsInline
      src={url}
      poster={poster ?? undefined}
      data-testid="preview-video"
    />
  );
}

/** The preview in a modal `<dialog>`: Esc or Close ends it. */
export function PreviewDialog({
  api,
  path,
  kind,
  onClose,
}: {
  api: LinkApi;
  path: string;
  kind: Kind;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  return (
    <dialog ref={dialog} className="preview" aria-labelledby="preview-title" onClose={onClose}>
      <div className="bar">
        <h2 id="preview-title">{baseName(path)}</h2>
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
      {kind === "image" ? (
        <img className="player" src={api.thumbnailUrl(path)} alt={`Preview of ${baseName(path)}`} />
      ) : (
        <MediaPreview api={api} path={path} kind={kind} />
      )}
    </dialog>
  );
}
