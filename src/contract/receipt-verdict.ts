/*
 * The delivery verdict, one rule for the receipt JSON, its CSV and PDFs, the console and the
 * Shares list (zod-free: the service and the console both import it). It answers the producer's
 * question: does each recipient now hold an intact copy of every file?
 *
 * The facts are cells, one per recipient and file: what the recipient's latest completed
 * download of that file showed. A later download of the same file by the same recipient decides
 * the cell again, so a failed verification followed by a verified download is history (the
 * downloads and the timeline keep it), not the verdict.
 */

/** One character per cell (the receipt's matrix strings). */
export const CELL = {
  /** Never completed a download of the file. */
  none: "-",
  /** The engine's SHA-256 of the bytes received matched the share's. */
  verified: "v",
  /** Received, but the engine reported no SHA-256: nothing to check. */
  unchecked: "u",
  /** The engine's SHA-256 did not match: the copy is not intact. */
  failed: "x",
} as const;
export type Cell = (typeof CELL)[keyof typeof CELL];

/** The cell a completed download of one file leaves. */
export const cellOf = (matched: boolean, reportedSha256: string | null): Cell =>
  matched ? CELL.verified : reportedSha256 === null ? CELL.unchecked : CELL.failed;

/** A recipient's state, and (the same names) the share's verdict. */
export const deliveryStates = [
  "verified",
  "delivered_unverified",
  "partly_delivered",
  "not_delivered",
  "failed",
] as const;
export type DeliveryState = (typeof deliveryStates)[number];

export const deliveryLabel: Record<DeliveryState, string> = {
  verified: "Verified",
  delivered_unverified: "Delivered, not verified",
  partly_delivered: "Partly delivered",
  not_delivered: "Not delivered yet",
  failed: "Verification failed",
};

/** What a verdict says, in a sentence (the share's; a recipient's reads the same for one). */
export const deliveryMeaning: Record<DeliveryState, string> = {
  verified: "Every recipient holds a copy of every file whose SHA-256 matched.",
  delivered_unverified: "Every recipient holds every file; some copies were not checked.",
  partly_delivered: "Not every recipient holds every file yet.",
  not_delivered: "Nobody has downloaded a file yet.",
  failed: "A recipient's latest copy of a file did not match its SHA-256.",
};

export const deliveryTone: Record<DeliveryState, "success" | "warning" | "danger" | "neutral"> = {
  verified: "success",
  delivered_unverified: "warning",
  partly_delivered: "warning",
  not_delivered: "neutral",
  failed: "danger",
};

/**
 * One recipient's state from their cells: `failed` when their latest copy of any file did not
 * match (whatever else they got), else `verified` when every file's latest copy matched,
 * `delivered_unverified` when they hold every file but some were not checked,
 * `partly_delivered` when some files are missing, `not_delivered` when they have none.
 */
export function partyState(cells: string): DeliveryState {
  if (cells.includes(CELL.failed)) return "failed";
  const missing = cells.includes(CELL.none);
  if (!missing) return cells.includes(CELL.unchecked) ? "delivered_unverified" : "verified";
  return /[vu]/.test(cells) ? "partly_delivered" : "not_delivered";
}

/**
 * The share's verdict from its recipients' states: `failed` when anyone's copy failed, else
 * the state everyone shares (`verified`, `not_delivered`), else `delivered_unverified` when
 * everyone holds everything, else `partly_delivered`. Nobody to deliver to: `not_delivered`.
 */
export function shareVerdict(states: readonly DeliveryState[]): DeliveryState {
  if (states.length === 0) return "not_delivered";
  if (states.includes("failed")) return "failed";
  if (states.every((s) => s === "verified")) return "verified";
  if (states.every((s) => s === "verified" || s === "delivered_unverified"))
    return "delivered_unverified";
  if (states.every((s) => s === "not_delivered")) return "not_delivered";
  return "partly_delivered";
}

/**
 * Run-length pairs over the files' order: `[count, value, count, value, …]` says the next
 * `count` files have `value` (the receipt's matrix: the index in `downloads` of the download
 * that decided each cell, -1 for none). A row downloaded in one go is one pair.
 */
export function encodeRuns<T>(values: readonly T[]): (number | T)[] {
  const runs: (number | T)[] = [];
  for (let i = 0; i < values.length; ) {
    let j = i + 1;
    while (j < values.length && values[j] === values[i]) j++;
    runs.push(j - i, values[i]!);
    i = j;
  }
  return runs;
}

/** The values `encodeRuns` encoded, `fill` past the runs' end. */
export function decodeRuns<T>(runs: readonly (number | T)[], length: number, fill: T): T[] {
  const values: T[] = [];
  for (let r = 0; r + 1 < runs.length && values.length < length; r += 2)
    for (let n = runs[r] as number; n > 0 && values.length < length; n--)
      values.push(runs[r + 1] as T);
  while (values.length < length) values.push(fill);
  return values;
}
