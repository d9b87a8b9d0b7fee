/* The workspace settings' bounds, zod-free so the console can check them without zod. */

export const WORKSPACE_NAME_MAX = 100;
/** The largest logo file accepted; it is re-encoded to a PNG of at most LOGO_BOX pixels. */
export const LOGO_UPLOAD_MAX_BYTES = 2 * 1024 * 1024;
export const LOGO_BOX = { width: 600, height: 200 };
