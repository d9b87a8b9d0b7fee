import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CreatedShare } from "@/contract/shares";
import { expect, test } from "./fixtures";

const TEXT = "Conform list, reel two.\n".repeat(500);

test("the receipt viewer's PDFs render (pdftoppm) and read back the files and their checksums (pdftotext)", async ({
  page,
  service,
}) => {
  const top = `Receipt-${Date.now()}`;
  await service.writeFile(`${top}/conform.edl`, TEXT);
  const share = await service.api<CreatedShare>("POST", "/shares", {
    paths: [top],
    title: "Reel two conform",
  });
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/shares?share=${share.id}&view=receipt`);
  await expect(page.getByText("Not downloaded yet")).toBeVisible();

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-receipt-"));
  try {
    for (const [button, expected] of [
      ["Receipt PDF", "Reel two conform"],
      ["Delivery note", "Reel two conform"],
    ] as const) {
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("button", { name: button }).click(),
      ]);
      const pdf = path.join(dir, download.suggestedFilename());
      await download.saveAs(pdf);
      expect(fs.readFileSync(pdf).subarray(0, 5).toString()).toBe("%PDF-");
      // Rendered, page one, as a picture: a PDF viewer would show it.
      execFileSync("pdftoppm", ["-png", "-r", "40", "-f", "1", "-l", "1", pdf, `${pdf}-page`]);
      const rendered = fs
        .readdirSync(dir)
        .filter((f) => f.startsWith(`${path.basename(pdf)}-page`));
      expect(rendered).toHaveLength(1);
      expect(fs.statSync(path.join(dir, rendered[0]!)).size).toBeGreaterThan(1000);
      const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" });
      expect(text).toContain(expected);
      expect(text).toContain("conform.edl");
      expect(text).toContain(createHash("sha256").update(TEXT).digest("hex"));
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
