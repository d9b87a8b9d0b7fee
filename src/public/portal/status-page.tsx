/** @jsxImportSource preact */
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { formatBytes, formatCount, formatExactDateTime } from "@/browser/format";
import type { SenderStatusPage } from "@/contract/portal-public";
import type { SenderStatus } from "@/contract/portal-rules";
import { PortalApi } from "./portal-api";

/** What each status tells the sender. */
const said: Record<SenderStatus, { title: string; text: string; tone: string }> = {
  received: {
    title: "Received, waiting for review",
    text: "Your files arrived. Nobody has reviewed them yet.",
    tone: "",
  },
  in_review: {
    title: "In review",
    text: "A reviewer is looking at your files and has not decided yet.",
    tone: "",
  },
  approved: { title: "Approved", text: "Your files were accepted.", tone: "verified" },
  rejected: {
    title: "Not accepted",
    text: "Your files were not accepted. Read the note below, and send them again if asked.",
    tone: "failed",
  },
};

type Load =
  | { state: "loading" }
  | { state: "ready"; value: SenderStatusPage }
  | { state: "failed"; message: string };

/**
 * The sender's status page of one upload (`/p/{slug}/status/{uploadId}#{token}`): opened by the
 * token in the address's fragment (never sent as part of the address), no key, no password.
 * Shows what became of the upload and the note the reviewer chose to share, as text.
 */
export function StatusPage({
  slug,
  uploadId,
  token,
}: {
  slug: string;
  uploadId: string;
  token: string;
}) {
  const api = useMemo(() => new PortalApi(slug), [slug]);
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const refresh = useCallback(async () => {
    try {
      setLoad({ state: "ready", value: await api.uploadStatus(uploadId, token) });
    } catch (err) {
      setLoad({ state: "failed", message: (err as Error).message });
    }
  }, [api, uploadId, token]);
  useEffect(() => void refresh(), [refresh]);
  useEffect(() => {
    if (load.state === "ready")
      document.title = `Upload ${load.value.reference} · ${load.value.workspaceName}`;
  }, [load]);

  if (load.state === "loading")
    return (
      <main className="page">
        <p aria-live="polite">Opening your upload’s status…</p>
      </main>
    );
  if (load.state === "failed")
    return (
      <main className="page">
        <section className="closed" aria-labelledby="status-title">
          <h1 id="status-title">This status link does not work</h1>
          <p>
            Check that you opened the whole address from your confirmation or its mail. (
            {load.message})
          </p>
          <div className="actions">
            <button type="button" onClick={() => void refresh()}>
              Try again
            </button>
          </div>
        </section>
      </main>
    );
  const s = load.value;
  const words = said[s.status];
  return (
    <main className="page">
      <header className="head">
        <p className="from">
          {s.portalTitle} · {s.workspaceName}
        </p>
        <h1>Your upload {s.reference}</h1>
      </header>
      <section className="card" aria-labelledby="status-now">
        <h2 id="status-now" aria-live="polite">
          {words.title}
        </h2>
        <p className={`state ${words.tone}`}>{words.text}</p>
        {s.noteToSender && (
          <>
            <h3>Note from {s.workspaceName}</h3>
            <p className="message">{s.noteToSender}</p>
          </>
        )}
        <dl className="facts">
          <dt>Reference</dt>
          <dd className="reference">{s.reference}</dd>
          <dt>Received</dt>
          <dd>{formatExactDateTime(s.receivedAt)}</dd>
          {s.decidedAt && (
            <>
              <dt>Decided</dt>
              <dd>{formatExactDateTime(s.decidedAt)}</dd>
            </>
          )}
          <dt>Files</dt>
          <dd>
            {formatCount(s.fileCount)} · {formatBytes(s.bytes)}
          </dd>
        </dl>
        <div className="actions">
          <button type="button" onClick={() => void refresh()}>
            Refresh
          </button>
        </div>
      </section>
    </main>
  );
}
