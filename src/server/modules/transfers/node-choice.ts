import { NODE_BUSY_RETRY_AFTER_SECONDS } from "@/contract/transfers";
import type { AppDeps } from "@/server/deps";
import { ApiError } from "@/server/lib/api-error";
import { EMBEDDED_NODE } from "./transfer-token";
import { liveTransfersByNode } from "./transfers.repository";

/**
 * A transfer holds its node's place while its engine may still move bytes: within its start
 * window unused, or active at the node within this long (the node marks activity at most once a
 * minute). A stalled or long-paused transfer gives its place up; it may still resume there.
 */
export const NODE_PLACE_IDLE_MS = 5 * 60_000;

/** The nodes specs may name: DATA_NODES, else NODE_URL, else the service's own. */
export const dataNodes = (config: AppDeps["config"]) =>
  config.dataNodes.length > 0 ? config.dataNodes : [config.nodeUrl ?? EMBEDDED_NODE];

/** Whether the choice weighs the nodes' load: not with one node and no capacity set. */
export const weighsLoad = (config: AppDeps["config"]) =>
  config.nodeMaxTransfers > 0 || dataNodes(config).length > 1;

/**
 * The node for a new transfer's spec (docs/scale-out.md, Data nodes): the one with the fewest
 * live transfers (`load`, as liveTransfersByNode counts them), the first listed on a tie. All
 * at NODE_MAX_TRANSFERS: 429 `node_busy` with `Retry-After`.
 */
export function chooseNode(config: AppDeps["config"], load: { node: string; live: number }[]) {
  const nodes = dataNodes(config);
  const max = config.nodeMaxTransfers;
  const live = new Map(load.map((r) => [r.node, r.live]));
  let best: { node: string; live: number } | null = null;
  for (const node of nodes) {
    const n = live.get(node) ?? 0;
    if ((max === 0 || n < max) && (!best || n < best.live)) best = { node, live: n };
  }
  if (!best)
    throw new ApiError(429, "node_busy", "Every data node is busy; try again shortly", {
      reason: "all_nodes_busy",
      nodes: nodes.length,
      retryAfterSeconds: NODE_BUSY_RETRY_AFTER_SECONDS,
    });
  return best.node;
}

/**
 * The node chosen on SQLite, its load counted in the database so every service process weighs
 * the same (the caller's write transaction keeps two creates from taking one last place).
 */
export function leastBusyNode(deps: Pick<AppDeps, "db" | "config">, now: number): string {
  if (!weighsLoad(deps.config)) return dataNodes(deps.config)[0]!;
  return chooseNode(deps.config, liveTransfersByNode(deps.db, now, now - NODE_PLACE_IDLE_MS));
}
