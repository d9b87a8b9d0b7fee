import { attentionRouter } from "./modules/attention/attention.index";
import { authRouter } from "./modules/auth/auth.index";
import { bulkRouter } from "./modules/bulk/bulk.index";
import { eventsRouter } from "./modules/events/events.index";
import { filesRouter } from "./modules/files/files.index";
import { mediaRouter } from "./modules/media/media.index";
import { operationsRouter } from "./modules/operations/operations.index";
import { portalsRouter } from "./modules/portals/portals.index";
import { publicPortalsRouter } from "./modules/portals/public.index";
import { renameRouter } from "./modules/rename/rename.index";
import { settingsRouter } from "./modules/settings/settings.index";
import { publicSharesRouter } from "./modules/shares/public.index";
import { sharesRouter } from "./modules/shares/shares.index";
import { transfersRouter } from "./modules/transfers/transfers.index";
import { webhooksRouter } from "./modules/webhooks/webhooks.index";

/**
 * Every module's router, mounted under /v1 in this order: it is the OpenAPI document's order of
 * operations and, where two routes match one request, the first mounted answers.
 */
export const routers = [
  authRouter,
  filesRouter,
  mediaRouter,
  operationsRouter,
  renameRouter,
  bulkRouter,
  transfersRouter,
  sharesRouter,
  publicSharesRouter,
  portalsRouter,
  publicPortalsRouter,
  webhooksRouter,
  eventsRouter,
  attentionRouter,
  settingsRouter,
] as const;
