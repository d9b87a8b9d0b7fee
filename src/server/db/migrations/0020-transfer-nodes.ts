import type { Migration } from ".";

// The data node a transfer's spec and token name (docs/scale-out.md, Data nodes): a node's load
// is its live transfers, counted here so every service process sees the same. Transfers made
// before are on no configured node and count toward none.
export const transferNodes: Migration = {
  version: 20,
  name: "transfer-nodes",
  up(db) {
    db.exec(`
      ALTER TABLE transfers ADD COLUMN node TEXT;
      CREATE INDEX transfers_node_live ON transfers (node, status)
        WHERE status IN ('queued', 'running', 'paused');
    `);
  },
};
