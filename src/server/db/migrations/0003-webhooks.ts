import type { Migration } from ".";

export const webhooks: Migration = {
  version: 3,
  name: "webhooks",
  up(db) {
    db.exec(`SELECT 1`);
  },
};
