/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { formatBytes, formatCount, formatExactDateTime } from "@/browser/format";
import { saveFile } from "@/browser/save-file";
import type { PortalConfirmation } from "@/contract/portal-public";
import { confirmationFileName, confirmationText, verdictOf } from "./portal-model";

/** Rows drawn before "Show all": the saved text always holds every file. */
const ROWS_SHOWN = 500;

/**
 * What the sender keeps: the reference to quote, when it arrived, and each file with its size
 * and the SHA-256 the service stored, beside this browser's own where it read the file. Saved as
 * a small text file or printed (the print styles drop the buttons).
 */
export function Confirmation({
  confirmation: c,
  localHashes,
  onSendMore,
}: {
  confirmation: PortalConfirmation;
  localHashes: Record<string, string>;
  onSendMore: () => void;
}) {
  const [all, setAll] = useState(c.files.length <= ROWS_SHOWN);
  const files = all ? c.files : c.files.slice(0, ROWS_SHOWN);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="card confirmation" aria-labelledby="confirmation-title">
      <h2 id="confirmation-title" ref={heading} tabIndex={-1}>
        Your files were received
      </h2>
      <p>
        Keep this confirmation. Quote the reference if you contact {c.workspaceName} about this
        upload.
      </p>
      <p>
        <a href={c.statusUrl}>Follow its review on your upload’s status page</a> (keep the link: it
        is the only way in).
      </p>
      <dl className="facts">
        <dt>Reference</dt>
        <dd className="reference">{c.reference}</dd>
        <dt>Portal</dt>
        <dd>{c.portalTitle}</dd>
        <dt>Sent to</dt>
        <dd>{c.workspaceName}</dd>
        <dt>Received</dt>
        <dd>{formatExactDateTime(c.completedAt)}</dd>
        {c.senderEmail && (
          <>
            <dt>From</dt>
            <dd>{c.senderEmail}</dd>
          </>
        )}
        <dt>Files</dt>
        <dd>
          {formatCount(c.fileCount)} · {formatBytes(c.bytes)}
        </dd>
      </dl>
      <div className="actions no-print">
        <button
          type="button"
          className="primary"
          onClick={() =>
            saveFile(
              new Blob([confirmationText(c, localHashes, formatExactDateTime)], {
                type: "text/plain;charset=utf-8",
              }),
              confirmationFileName(c),
            )
          }
        >
          Save confirmation
        </button>
        <button type="button" onClick={() => window.print()}>
          Print
        </button>
        <button type="button" onClick={onSendMore}>
          Send more files
        </button>
      </div>
      <h3>Files</h3>
      <ul className="rows received">
        {files.map((f) => {
          const verdict = verdictOf(localHashes[f.path], f.sha256);
          return (
            <li key={f.path}>
              <div className="row-main">
                <span className="path">{f.path}</span>
                <span className="sha">SHA-256 {f.sha256}</span>
                {verdict !== null && (
                  <span className={`state ${verdict ? "ok" : "error"}`}>
                    {verdict
                      ? "Matches the file you sent"
                      : "Differs from the file this browser read: send it again"}
                  </span>
                )}
              </div>
              <span className="size">{formatBytes(f.size)}</span>
            </li>
          );
        })}
      </ul>
      {c.files.length < c.fileCount && (
        <p className="meta">and {formatCount(c.fileCount - c.files.length)} more files</p>
      )}
      {!all && (
        <button type="button" className="no-print" onClick={() => setAll(true)}>
          Show all {formatCount(c.files.length)} files
        </button>
      )}
    </section>
  );
}
