import { ApiError } from "@/browser/api-error";
import { formatCount } from "@/browser/format";
import type { StartedPortalUpload } from "@/contract/portal-public";
import { type FormKey, type Picked, placeIssues } from "./portal-model";
import type { StoredUpload } from "./session";

/** The upload the service started, as kept for a reload: every file not yet sent nor hashed. */
export const storedUploadOf = (
  started: StartedPortalUpload,
  picked: readonly Picked[],
): StoredUpload => ({
  uploadId: started.uploadId,
  spec: started.transferSpec,
  files: picked.map((p) => ({
    path: p.path,
    size: p.file.size,
    lastModified: p.file.lastModified,
    done: false,
    sha256: null,
  })),
  startedAt: Date.now(),
});

/** What the form shows when an upload could not start: the parts it names are replaced. */
export interface StartFailure {
  form?: Map<FormKey, string>;
  files?: Map<string, string>;
  other: string[];
}

/**
 * Why the upload did not start, each issue beside what it is about; `refused` when the portal
 * closed or wants its password again (the page reads it anew).
 */
export function startFailure(err: unknown, picked: readonly Picked[]): StartFailure | "refused" {
  if (!(err instanceof ApiError))
    return {
      other: [`The upload could not start: ${(err as Error).message}. Check the connection.`],
    };
  if (err.code === "validation_failed" || err.code === "path_rejected") {
    const placed = placeIssues(err.fieldIssues, picked);
    return {
      form: placed.form,
      files: placed.files,
      other:
        placed.other.length || placed.form.size || placed.files.size ? placed.other : [err.message],
    };
  }
  if (err.status === 403 && err.reason !== null) return "refused";
  if (err.code === "rate_limited") {
    const seconds = Number(err.details?.retryAfterSeconds ?? 0);
    return {
      other: [
        `Too many attempts from this connection. Try again${seconds ? ` in ${seconds} s` : " shortly"}.`,
      ],
    };
  }
  return { other: [err.message] };
}

/** What the page says after files were picked: how many, how many refused, system files left out. */
export function pickedNote(added: number, refused: number, skipped: number) {
  return [
    `Added ${formatCount(added)} file${added === 1 ? "" : "s"}.`,
    refused > 0 ? `${formatCount(refused)} cannot be sent here: see below.` : "",
    skipped > 0
      ? `${formatCount(skipped)} system file${skipped === 1 ? "" : "s"} (like .DS_Store) left out.`
      : "",
  ]
    .filter(Boolean)
    .join(" ");
}
