/**
 * SQLite's 0021: an endpoint's delivery budget counts the live leases on its rows, from every
 * process; settled rows drop their lease, so this index holds only attempts in flight.
 */
export const deliveryLeasesSql = `
CREATE INDEX webhook_deliveries_leased ON webhook_deliveries (endpoint_id, lease_expires_at)
  WHERE lease_owner IS NOT NULL;
`;
