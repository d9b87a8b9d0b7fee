/** @jsxImportSource preact */
import { useEffect, useRef, useState } from "preact/hooks";
import { formatBytes, formatCount } from "@/browser/format";
import { FilePickers } from "./file-pickers";
import type { PickResult } from "./picked";
import { rateText } from "./portal-model";
import { ProgressRows, percent } from "./progress-rows";
import type { UploadView } from "./upload-view";
import type { PortalUploadRun } from "./uploader";

/** What the whole upload is doing, in a sentence a screen reader hears when it changes. */
function headline(v: UploadView, failed: number, missing: number) {
  if (v.phase === "completing") return "Every file arrived. Finishing…";
  if (v.phase === "cancelled") return "Cancelling…";
  if (v.paused) return "Paused";
  if (missing > 0) return `Choose the same files again to go on (${formatCount(missing)} missing)`;
  if (v.reconnecting) return "Reconnecting…";
  if (failed > 0 && v.files.every((f) => f.status === "done" || f.status === "failed"))
    return `${formatCount(failed)} file${failed === 1 ? "" : "s"} failed: retry, or cancel the upload`;
  if (v.files.every((f) => f.status === "done")) return "Every file arrived";
  return "Sending your files";
}

/**
 * An upload under way: every file's progress and the total, with the rate and time left;
 * pause, resume, retry of a failed file and cancel. After a reload the files must be picked
 * again (a browser cannot reopen them), and each goes on from where the node stopped.
 */
export function UploadProgress({
  run,
  view,
  workspaceName,
  onCancelled,
}: {
  run: PortalUploadRun;
  view: UploadView;
  workspaceName: string;
  onCancelled: (notice: string) => void;
}) {
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [note, setNote] = useState("");
  const failed = view.files.filter((f) => f.status === "failed").length;
  const missing = view.files.filter((f) => f.status === "missing").length;
  const allIn = view.files.every((f) => f.status === "done");
  // Pause means something: a file is waiting its turn, being read or being sent.
  const moving = view.files.some(
    (f) => f.status === "queued" || f.status === "hashing" || f.status === "uploading",
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that started the upload is gone: focus goes to what replaced it.
  useEffect(() => heading.current?.focus(), []);
  const sending = view.phase === "sending";

  function attach({ picked }: PickResult) {
    const matched = run.attach(picked);
    setNote(
      matched > 0
        ? `${formatCount(matched)} file${matched === 1 ? "" : "s"} found again.`
        : "None of these are files of this upload (same name, size and date): choose the ones you picked before.",
    );
  }

  async function cancel() {
    try {
      await run.cancel();
      onCancelled("The upload was cancelled.");
    } catch {
      // Sending stopped here all the same; the service sets an idle upload aside in time.
      onCancelled(
        "Sending stopped, but the service could not be told just now. The unfinished upload is set aside in time.",
      );
    }
  }

  return (
    <section className="card" aria-labelledby="progress-title">
      <h2 id="progress-title" ref={heading} tabIndex={-1}>
        {missing > 0 ? "Your upload was interrupted" : "Sending"}
      </h2>
      <p className="status" aria-live="polite">
        {headline(view, failed, missing)}
      </p>
      <div className="total">
        <progress
          value={view.sent}
          max={view.total || 1}
          aria-label="All files"
          aria-valuetext={`${percent(view.sent, view.total)}%`}
        />
        <p className="meta">
          {formatBytes(view.sent)} of {formatBytes(view.total)} · {percent(view.sent, view.total)}%
          {sending && !view.paused && view.estimate.rate !== null
            ? ` · ${rateText(view.estimate)}`
            : ""}
        </p>
      </div>
      {view.error && (
        <p className="error" role="alert">
          {view.error}
        </p>
      )}
      {missing > 0 && sending && (
        <div className="resume-pick">
          <p>
            This browser cannot reopen files after a reload. Choose the same files or folder again:
            each goes on from where it stopped.
          </p>
          <FilePickers id="portal-repick" onPicked={attach} />
          <p className="meta" aria-live="polite">
            {note}
          </p>
        </div>
      )}
      <div className="actions">
        {sending && allIn && (
          <button type="button" className="primary" onClick={() => void run.complete()}>
            Finish the upload
          </button>
        )}
        {sending && view.paused && (
          <button type="button" className="primary" onClick={() => run.resume()}>
            Resume
          </button>
        )}
        {sending && !view.paused && moving && (
          <button type="button" onClick={() => run.pause()}>
            Pause
          </button>
        )}
        {sending && !confirmCancel && (
          <button type="button" onClick={() => setConfirmCancel(true)}>
            Cancel upload
          </button>
        )}
      </div>
      {sending && confirmCancel && (
        <fieldset className="confirm">
          <legend>Cancel this upload?</legend>
          <p>
            Sending stops and the upload is not handed in. Files that already arrived stay with{" "}
            {workspaceName}, marked as an unfinished upload.
          </p>
          <div className="actions">
            <button type="button" className="danger" onClick={() => void cancel()}>
              Yes, cancel the upload
            </button>
            <button type="button" onClick={() => setConfirmCancel(false)}>
              Keep sending
            </button>
          </div>
        </fieldset>
      )}
      <ProgressRows run={run} files={view.files} sending={sending} />
    </section>
  );
}
