import type { Migration } from ".";

/**
 * Whether a share's plain link opens it (docs/api-decisions.md, Shares and receipts: the open
 * link). A share with recipients used to get one beside the personal links, so downloads through
 * it were anonymous and attribution could be bypassed; now it gets one only when asked. Shares
 * made before keep theirs (their senders may have handed the link out). The token stays in the
 * row either way: it is the share's unique address, and a share without an open link refuses it
 * like an unknown one.
 */
export const shareOpenLink: Migration = {
  version: 14,
  name: "share-open-link",
  up(db) {
    db.exec("ALTER TABLE shares ADD COLUMN open_link INTEGER NOT NULL DEFAULT 1");
  },
};
