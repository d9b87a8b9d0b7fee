import { z } from "zod";
import { count, dateTime, trimmedText } from "./common";
import { WORKSPACE_NAME_MAX } from "./settings-rules";

/* The workspace's settings: how its documents (receipts, delivery notes) are branded. Ours. */

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
