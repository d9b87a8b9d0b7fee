import { createHash } from "node:crypto";
import type { Browser } from "@playwright/test";
import type { StartedPortalUpload } from "@/contract/portal-public";
import type { Portal } from "@/contract/portals";
import { expect, type Service } from "../fixtures";

export const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

export interface SentFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/**
 * A sender in a browser context of their own (no key, no console) sends files through an open
 * portal's page. Answers the confirmation page, still open, and its context (close it).
 */
export async function sendThroughPortalPage(
  browser: Browser,
  portal: Portal,
  sender: { name: string; email?: string },
  files: SentFile[],
) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(portal.url);
  await expect(page.getByRole("heading", { name: "Send files" })).toBeVisible();
  await page.getByLabel("Name").fill(sender.name);
  if (sender.email) await page.getByLabel("Email").fill(sender.email);
  await page.getByLabel("Choose files").setInputFiles(files);
  await page.getByRole("button", { name: /^Upload/ }).click();
  await expect(page.getByRole("heading", { name: "Your files were received" })).toBeVisible({
    timeout: 30_000,
  });
  return { page, context };
}

/** Text files as `sendThroughPortalPage` takes them. */
export const textFiles = (files: Record<string, string>): SentFile[] =>
  Object.entries(files).map(([name, text]) => ({
    name,
    mimeType: "text/plain",
    buffer: Buffer.from(text),
  }));

/** A sender's upload through the public API and the node's tus, as the portal page sends one. */
export async function sendByApi(
  service: Service,
  portal: Portal,
  senderName: string,
  files: Record<string, Buffer>,
) {
  const json = async (res: Response) => {
    if (!res.ok) throw new Error(`${res.url} -> ${res.status} ${await res.text()}`);
    return res.json();
  };
  const list = Object.entries(files);
  const started = (await json(
    await fetch(`${service.apiUrl}/public/portals/${portal.slug}/uploads`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        senderName,
        files: list.map(([p, b]) => ({ path: p, size: b.length })),
      }),
    }),
  )) as StartedPortalUpload;
  const { token, destinationRoot, node } = started.transferSpec;
  const meta = (m: Record<string, string>) =>
    Object.entries(m)
      .map(([k, v]) => `${k} ${Buffer.from(v).toString("base64")}`)
      .join(",");
  for (const [p, bytes] of list) {
    const res = await fetch(new URL(node.uploads, service.origin), {
      method: "POST",
      headers: {
        Authorization: `Bearer ${token}`,
        "Tus-Resumable": "1.0.0",
        "Upload-Length": String(bytes.length),
        "Upload-Metadata": meta({ path: `${destinationRoot}/${p}`, sha256: sha256(bytes) }),
        "Content-Type": "application/offset+octet-stream",
      },
      body: new Uint8Array(bytes),
    });
    expect(res.status, await res.text()).toBe(201);
  }
  await json(
    await fetch(
      `${service.apiUrl}/public/portals/${portal.slug}/uploads/${started.uploadId}/complete`,
      { method: "POST", headers: { Authorization: `Bearer ${token}` } },
    ),
  );
  return { uploadId: started.uploadId, folder: destinationRoot };
}
