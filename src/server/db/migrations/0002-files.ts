import type { Migration } from ".";

export const files: Migration = {
  version: 2,
  name: "files",
  up(db) {
    db.exec(`SELECT 1`);
  },
};
