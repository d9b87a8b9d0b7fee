/** SQLite's migration 0020 (the data node a transfer is on, for node load), for PostgreSQL. */
export const transferNodesSql = `
ALTER TABLE transfers ADD COLUMN node TEXT COLLATE "C";
CREATE INDEX transfers_node_live ON transfers (node, status)
  WHERE status IN ('queued', 'running', 'paused');
`;
