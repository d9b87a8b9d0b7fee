import { ApiError } from "@/browser/api-error";
import { describeError } from "@/web/lib/api-client";
import { updateTransfer } from "../api/update-transfer";
import { endRun, filesChanged, type Run, store, totals, uploadOf } from "./upload-run";

/** `completed` is refused until the node has committed every file: asked again this often. */
const COMPLETE_ATTEMPTS = 10;
const COMPLETE_RETRY_MS = 500;

/**
 * Ends a transfer whose files are all done, failed or cancelled: the service hears how it ended
 * (completed once the node has committed the last file), and the files list is read again.
 */
export async function finish(run: Run) {
  const upload = uploadOf(run.id);
  if (!upload || !(upload.status === "running" || upload.status === "reconnecting")) return;
  endRun(run);
  const { bytesDone, filesDone } = totals(run, upload);
  const failed = upload.files.filter((f) => f.status === "failed");
  const cancelled = upload.files.filter((f) => f.status === "cancelled").length;
  run.reporter.stop();
  await run.reporter.flush();
  filesChanged(run, true);
  if (failed.length > 0 || filesDone === 0) {
    const error =
      failed.length > 0
        ? `${failed.length} of ${upload.files.length} files failed: ${failed[0]!.error}`
        : null;
    const status = failed.length > 0 ? "failed" : "cancelled";
    store().update(run.id, { status, error });
    await updateTransfer(run.queryClient, run.id, {
      status,
      bytesDone,
      filesDone,
      ...(error ? { errorCode: "upload_failed", errorMessage: error.slice(0, 500) } : {}),
    }).catch(() => {});
    return;
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await updateTransfer(run.queryClient, run.id, {
        status: "completed",
        bytesDone,
        filesDone,
        // Cancelled files leave the totals, which the service holds completion to.
        ...(cancelled > 0 ? { filesTotal: filesDone, bytesTotal: bytesDone } : {}),
      });
      break;
    } catch (error) {
      // The node commits the last file as it answers the last PATCH; the service may not see it yet.
      if (!(error instanceof ApiError) || error.status >= 500 || attempt >= COMPLETE_ATTEMPTS) {
        store().update(run.id, { status: "failed", error: describeError(error) });
        return;
      }
      await new Promise((r) => setTimeout(r, COMPLETE_RETRY_MS));
    }
  }
  store().update(run.id, {
    status: "completed",
    error: cancelled > 0 ? `${cancelled} file${cancelled === 1 ? "" : "s"} cancelled` : null,
  });
}
