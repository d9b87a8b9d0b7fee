import type { Migration } from ".";

export const webhooks: Migration = {
  version: 3,
  name: "webhooks",
  up(db) {
    db.exec(`
      -- Commit order of events. Ids from two processes (the service and the members CLI) made in
      -- the same millisecond need not sort in commit order; the stream pages by seq so a poller
      -- never skips an event that committed after it read past a larger id.
      ALTER TABLE events ADD COLUMN seq INTEGER;
      UPDATE events SET seq = rowid;
      CREATE UNIQUE INDEX events_seq ON events (seq);
      CREATE INDEX events_workspace_seq ON events (workspace_id, seq);
      CREATE INDEX events_workspace_type_seq ON events (workspace_id, type, seq);
      CREATE INDEX events_created ON events (created_at);

      -- Webhook endpoints and REST-hook subscriptions share one table and one dispatcher.
      CREATE TABLE webhook_endpoints (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id),
        kind TEXT NOT NULL CHECK (kind IN ('webhook', 'rest_hook')),
        url TEXT NOT NULL,
        description TEXT,
        events TEXT NOT NULL,
        secret_sealed TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'disabled')),
        failure_count INTEGER NOT NULL DEFAULT 0,
        last_delivery_at INTEGER,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX webhook_endpoints_workspace ON webhook_endpoints (workspace_id, kind, status);

      CREATE TABLE webhook_deliveries (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL,
        endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
        event_id TEXT NOT NULL REFERENCES events(id) ON DELETE CASCADE,
        event_type TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER NOT NULL,
        -- 1 while the endpoint is disabled: such deliveries wait, and must not be scanned by every claim.
        held INTEGER NOT NULL DEFAULT 0,
        lease_owner TEXT,
        lease_expires_at INTEGER,
        last_status_code INTEGER,
        last_error TEXT,
        delivered_at INTEGER,
        created_at INTEGER NOT NULL,
        UNIQUE (event_id, endpoint_id)
      );
      CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
        WHERE status = 'pending' AND held = 0;
      CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, id);

      CREATE TABLE webhook_attempts (
        delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt INTEGER NOT NULL,
        manual INTEGER NOT NULL,
        url TEXT NOT NULL,
        request_headers TEXT NOT NULL,
        request_body TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        duration_ms INTEGER NOT NULL,
        status_code INTEGER,
        error TEXT,
        response_body TEXT,
        response_truncated INTEGER NOT NULL,
        PRIMARY KEY (delivery_id, attempt)
      ) WITHOUT ROWID;
    `);
  },
};
