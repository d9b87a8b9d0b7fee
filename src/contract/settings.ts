import { z } from "zod";
import { count, dateTime, trimmedText } from "./common";

/* The workspace's settings: how its documents (receipts, delivery notes) are branded. Ours. */

export const WORKSPACE_NAME_MAX = 100;
/** The largest logo file accepted; it is re-encoded to a PNG of at most LOGO_BOX pixels. */
export const LOGO_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_BOX = { width: 600, height: 200 };

export const workspaceLogoSchema = z
  .object({
    mimeType: z.literal("image/png"),
    width: count(),
    height: count(),
    sizeBytes: count(),
    updatedAt: dateTime(),
  })
  .meta({ id: "WorkspaceLogo" });

export const workspaceSettingsSchema = z
  .object({
    name: z.string().meta({ description: "Printed at the top of every receipt and note" }),
    logo: workspaceLogoSchema.nullable().meta({
      description: "null: no logo. The image itself: GET settings/logo",
    }),
  })
  .meta({ id: "WorkspaceSettings" });
export type WorkspaceSettings = z.infer<typeof workspaceSettingsSchema>;

export const updateSettingsBodySchema = z
  .object({
    name: trimmedText(WORKSPACE_NAME_MAX),
  })
  .meta({ id: "UpdateWorkspaceSettings" });
