import type { Db } from "@/server/db/database";
import { core } from "./0001-core";
import { files } from "./0002-files";
import { webhooks } from "./0003-webhooks";
import { folderRevisions } from "./0004-folder-revisions";
import { operations } from "./0005-operations";
import { bulkJobs } from "./0006-bulk-jobs";
import { transfers } from "./0007-transfers";
import { shares } from "./0008-shares";
import { portals } from "./0009-portals";
import { passwordAttempts } from "./0010-password-attempts";
import { shareDeliveries } from "./0011-share-deliveries";
import { reviewDecisions } from "./0012-review-decisions";
import { shareOpenLink } from "./0014-share-open-link";
import { attention } from "./0015-attention";
import { workspaceLogos } from "./0016-workspace-logos";
import { renditions } from "./0017-renditions";
import { timeCodedNotes } from "./0018-time-coded-notes";
import { blobHolds } from "./0019-blob-holds";
import { transferNodes } from "./0020-transfer-nodes";
import { deliveryLeases } from "./0021-delivery-leases";
import { uploadParts } from "./0022-upload-parts";

export interface Migration {
  version: number;
  name: string;
  up(db: Db): void;
}

/** Applied in order, each in its own transaction; never edit one that has shipped, add the next. */
export const migrations: Migration[] = [
  core,
  files,
  webhooks,
  folderRevisions,
  operations,
  bulkJobs,
  transfers,
  shares,
  portals,
  passwordAttempts,
  shareDeliveries,
  reviewDecisions,
  shareOpenLink,
  attention,
  workspaceLogos,
  renditions,
  timeCodedNotes,
  blobHolds,
  transferNodes,
  deliveryLeases,
  uploadParts,
];
