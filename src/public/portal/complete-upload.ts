import { ApiError } from "@/browser/api-error";
import type { PortalConfirmation } from "@/contract/portal-public";
import type { PortalApi } from "./portal-api";

/** `complete` is refused (`not_committed`) until the node has committed the last file. */
const COMPLETE_ATTEMPTS = 8;
const COMPLETE_RETRY_MS = 750;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Asks the service to close the upload, asking again while the node is still committing the last
 * file. The confirmation is null when an earlier answer was lost on the way (the upload landed).
 */
export async function completeUpload(
  api: PortalApi,
  uploadId: string,
  token: string,
): Promise<{ confirmation: PortalConfirmation | null } | { error: string }> {
  for (let attempt = 1; ; attempt++) {
    try {
      return { confirmation: await api.complete(uploadId, token) };
    } catch (error) {
      const codes = error instanceof ApiError ? error.fieldIssues.map((i) => i.code) : [];
      if (codes.includes("already_reported")) return { confirmation: null };
      const notYet = codes.includes("not_committed");
      if (notYet && attempt < COMPLETE_ATTEMPTS) {
        await sleep(COMPLETE_RETRY_MS * attempt);
        continue;
      }
      return {
        error: notYet
          ? "The files arrived but are still being stored. Try finishing again in a moment."
          : `The upload could not be finished: ${(error as Error).message}`,
      };
    }
  }
}
