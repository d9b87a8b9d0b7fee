import { z } from "@hono/zod-openapi";
import { okSchema } from "@/contract/common";
import { updateSettingsBodySchema, workspaceSettingsSchema } from "@/contract/settings";
import { LOGO_UPLOAD_MAX_BYTES } from "@/contract/settings-rules";
import { apiRoute, json, jsonBody, workspaceParams } from "@/server/http/router";

const tags = ["Settings"];
/** Reading the branding needs only a valid key; changing what every receipt prints needs shares:write. */
const read = [] as const;
const write = ["shares:write"] as const;
const image = { schema: z.string().meta({ format: "binary" }) };

export const getSettingsRoute = apiRoute({
  operationId: "getWorkspaceSettings",
  method: "get",
  path: "/workspaces/{workspaceId}/settings",
  tags,
  scopes: read,
  extension: true,
  summary: "The workspace's settings",
  description: "The name and logo printed on the workspace's receipts and delivery notes.",
  request: { params: workspaceParams },
  responses: { 200: json(workspaceSettingsSchema, "The settings") },
});

export const updateSettingsRoute = apiRoute({
  operationId: "updateWorkspaceSettings",
  method: "patch",
  path: "/workspaces/{workspaceId}/settings",
  tags,
  scopes: write,
  extension: true,
  summary: "Rename the workspace",
  description:
    "`name`: 1 to 100 characters after trimming; receipts rendered from now on print it.",
  request: { params: workspaceParams, body: jsonBody(updateSettingsBodySchema) },
  responses: { 200: json(workspaceSettingsSchema, "The settings") },
});

export const getLogoRoute = apiRoute({
  operationId: "getWorkspaceLogo",
  method: "get",
  path: "/workspaces/{workspaceId}/settings/logo",
  tags,
  scopes: read,
  extension: true,
  summary: "The workspace's logo",
  description: "The stored PNG; 404 when the workspace has none.",
  request: { params: workspaceParams },
  responses: { 200: { description: "The logo", content: { "image/png": image } } },
});

export const putLogoRoute = apiRoute({
  operationId: "putWorkspaceLogo",
  method: "put",
  path: "/workspaces/{workspaceId}/settings/logo",
  tags,
  scopes: write,
  extension: true,
  summary: "Set the workspace's logo",
  description: `The body is the image itself, PNG or JPEG, at most ${LOGO_UPLOAD_MAX_BYTES.toLocaleString("en")} bytes (\`too_large\`); anything else is \`not_an_image\`. It is stored re-encoded as a PNG of at most 600 × 200 pixels.`,
  request: {
    params: workspaceParams,
    body: { required: true, content: { "image/png": image, "image/jpeg": image } },
  },
  responses: { 200: json(workspaceSettingsSchema, "The settings, with the new logo") },
});

export const deleteLogoRoute = apiRoute({
  operationId: "deleteWorkspaceLogo",
  method: "delete",
  path: "/workspaces/{workspaceId}/settings/logo",
  tags,
  scopes: write,
  extension: true,
  summary: "Remove the workspace's logo",
  description: "Documents print the name alone from then on; 404 when there is no logo.",
  request: { params: workspaceParams },
  responses: { 200: json(okSchema, "Removed") },
});
