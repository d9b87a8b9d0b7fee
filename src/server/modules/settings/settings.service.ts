import sharp from "sharp";
import type { WorkspaceSettings } from "@/contract/settings";
import { LOGO_BOX, LOGO_UPLOAD_MAX_BYTES } from "@/contract/settings-rules";
import type { Db } from "@/server/db/database";
import type { AppDeps } from "@/server/deps";
import { notFound, validationFailed } from "@/server/lib/api-error";
import { toIso } from "@/server/lib/clock";
import { getWorkspace } from "@/server/modules/workspaces/workspaces.repository";
import { deleteLogo, getLogo, putLogo, renameWorkspace } from "./settings.repository";

/** A decoded logo bigger than this is refused before it is resized (a decompression bomb). */
const MAX_INPUT_PIXELS = 40_000_000;

export const logoTooLarge = (bytes: number) =>
  validationFailed(
    "body",
    `The logo is ${bytes.toLocaleString("en")} bytes; at most ${LOGO_UPLOAD_MAX_BYTES.toLocaleString("en")} are accepted`,
    "too_large",
  );

/** The settings' view from the workspace's name and its logo's measures, for both engines. */
export const settingsView = (
  name: string | undefined,
  logo: { width: number; height: number; sizeBytes: number; updatedAt: number } | undefined,
): WorkspaceSettings => ({
  name: name ?? "",
  logo: logo
    ? {
        mimeType: "image/png",
        width: logo.width,
        height: logo.height,
        sizeBytes: logo.sizeBytes,
        updatedAt: toIso(logo.updatedAt),
      }
    : null,
});

export function readSettings(deps: { db: Db }, workspaceId: string): WorkspaceSettings {
  const logo = getLogo(deps.db, workspaceId);
  return settingsView(
    getWorkspace(deps.db, workspaceId)?.name,
    logo && { ...logo, sizeBytes: logo.png.length, updatedAt: logo.updated_at },
  );
}

export function updateSettings(deps: { db: Db }, workspaceId: string, input: { name: string }) {
  renameWorkspace(deps.db, workspaceId, input.name);
  return readSettings(deps, workspaceId);
}

/**
 * Stores a PNG or JPEG as the workspace's logo, re-encoded (whatever the upload carried beside
 * its pixels is dropped) as a PNG of at most 600 × 200 pixels, small enough to print on every
 * page of a receipt.
 */
export async function setLogo(deps: AppDeps, workspaceId: string, bytes: Uint8Array) {
  if (bytes.length > LOGO_UPLOAD_MAX_BYTES) throw logoTooLarge(bytes.length);
  const unreadable = () =>
    validationFailed("body", "The logo must be a PNG or JPEG image", "not_an_image");
  const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .metadata()
    .catch(() => {
      throw unreadable();
    });
  if (meta.format !== "png" && meta.format !== "jpeg") throw unreadable();
  const { data, info } = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize(LOGO_BOX.width, LOGO_BOX.height, { fit: "inside", withoutEnlargement: true })
    .png({ palette: true, compressionLevel: 9 })
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw unreadable();
    });
  putLogo(deps.db, {
    workspace_id: workspaceId,
    png: data,
    width: info.width,
    height: info.height,
    updated_at: deps.clock.now(),
  });
  return readSettings(deps, workspaceId);
}

export function removeLogo(deps: AppDeps, workspaceId: string) {
  if (!deleteLogo(deps.db, workspaceId)) throw notFound("The logo");
}

export function logoPng(deps: AppDeps, workspaceId: string) {
  const logo = getLogo(deps.db, workspaceId);
  if (!logo) throw notFound("The logo");
  return logo;
}

/** The logo's bytes for a document, or null. */
export const logoForDocuments = (deps: AppDeps, workspaceId: string) =>
  getLogo(deps.db, workspaceId)?.png ?? null;
