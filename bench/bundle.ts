/**
 * npm run bench:bundle: the gzip size of the JavaScript a person downloads to reach the Files
 * page, measured in a real browser: open the printed sign-in URL, wait for the folder's rows,
 * and add up every script the page fetched (gzip -9 of each file, as a server would send it).
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { launchChromium, root, startService } from "./support";

const TARGET_KB = 120;
const CEILING_KB = 150;

const service = await startService();
const info = (await (
  await fetch(`${service.origin}/v1/auth/key`, {
    headers: { Authorization: `Bearer ${service.adminKey}` },
  })
).json()) as { workspace: { id: string } };
await fetch(`${service.origin}/v1/workspaces/${info.workspace.id}/files/folder`, {
  method: "POST",
  headers: { Authorization: `Bearer ${service.adminKey}`, "Content-Type": "application/json" },
  body: JSON.stringify({ path: "Deliveries" }),
});
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  const scripts = new Set<string>();
  page.on("response", (res) => {
    const url = new URL(res.url());
    if (url.origin === service.origin && url.pathname.endsWith(".js")) scripts.add(url.pathname);
  });
  await page.goto(service.signInUrl);
  await page.getByRole("grid").waitFor();
  await page.waitForLoadState("networkidle");

  const rows = [...scripts].map((p) => {
    const bytes = fs.readFileSync(path.join(root, "dist", p));
    return {
      file: p.replace(/^\/assets\//, ""),
      raw: bytes.length,
      gzip: zlib.gzipSync(bytes, { level: 9 }).length,
    };
  });
  rows.sort((a, b) => b.gzip - a.gzip);
  for (const r of rows)
    console.log(
      `${r.file.padEnd(44)} ${(r.raw / 1024).toFixed(1).padStart(8)} KB ${(r.gzip / 1024).toFixed(1).padStart(8)} KB gzip`,
    );
  const totalBytes = rows.reduce((s, r) => s + r.gzip, 0);
  const total = totalBytes / 1024;
  const verdict =
    total <= TARGET_KB
      ? "within target"
      : total <= CEILING_KB
        ? "over target, under ceiling"
        : "OVER CEILING";
  console.log(
    `\nJavaScript to reach the Files page: ${total.toFixed(1)} KB gzip (${totalBytes} bytes, to compare changes smaller than the rounding) in ${rows.length} files (target ${TARGET_KB} KB, ceiling ${CEILING_KB} KB): ${verdict}`,
  );
  if (total > CEILING_KB) process.exitCode = 1;
} finally {
  await browser.close();
  await service.stop();
}
