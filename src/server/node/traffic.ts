import { setTimeout as sleep } from "node:timers/promises";
import { ApiError } from "@/server/lib/api-error";
import type { TransferRow } from "@/server/modules/transfers/transfers.repository";

const LEVEL = { background: 0, normal: 1, deadline: 2 } as const;

/** A stream below the highest priority moving bytes is held to this rate (bytes per second). */
export const PACED_BYTES_PER_SECOND = 8 * 1024 * 1024;

/**
 * What this node is moving right now, for the two rules of docs/data-node.md: `streams` (a
 * transfer's requests carrying bytes at once, refused beyond it with 429 `node_busy`), and
 * `priority` (while a transfer of a higher priority moves bytes, lower ones are paced to
 * PACED_BYTES_PER_SECOND per stream: deadline before normal before background). Counted per
 * node process: nodes beside one service each keep their own.
 */
export class Traffic {
  private readonly perTransfer = new Map<string, number>();
  private readonly perLevel = [0, 0, 0];

  /** Takes one of the transfer's streams; the returned function gives it back. */
  enter(transfer: Pick<TransferRow, "id" | "streams" | "priority">): () => void {
    const n = this.perTransfer.get(transfer.id) ?? 0;
    if (n >= transfer.streams)
      throw new ApiError(
        429,
        "node_busy",
        `This transfer already has ${n} of its ${transfer.streams} streams in flight`,
        { reason: "streams", streams: transfer.streams, retryAfterSeconds: 1 },
      );
    this.perTransfer.set(transfer.id, n + 1);
    const level = LEVEL[transfer.priority] ?? 1;
    this.perLevel[level]! += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const now = (this.perTransfer.get(transfer.id) ?? 1) - 1;
      if (now > 0) this.perTransfer.set(transfer.id, now);
      else this.perTransfer.delete(transfer.id);
      this.perLevel[level]! -= 1;
    };
  }

  /** Whether a stream of this priority must yield to a higher one now. */
  paced(priority: TransferRow["priority"]) {
    for (let l = (LEVEL[priority] ?? 1) + 1; l < this.perLevel.length; l++)
      if (this.perLevel[l]! > 0) return true;
    return false;
  }

  /** Waits as long as `bytes` take at the paced rate, when the priority must yield. */
  async pace(priority: TransferRow["priority"], bytes: number) {
    if (this.paced(priority)) await sleep((bytes / PACED_BYTES_PER_SECOND) * 1000);
  }
}
