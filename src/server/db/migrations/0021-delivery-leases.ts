import type { Migration } from ".";

export const deliveryLeases: Migration = {
  version: 21,
  name: "delivery-leases",
  up(db) {
    db.exec(`
      -- An endpoint's budget before the twenty-failure rule counts the leases held on its rows,
      -- by whichever process holds them. Settled rows drop their lease, so this index holds only
      -- attempts in flight (and a dead process's until they are claimed again): a claim reads it
      -- whole, whatever the history behind each endpoint.
      CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, lease_expires_at)
        WHERE lease_owner IS NOT NULL;
    `);
  },
};
