import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import nodePath from "node:path";
import type { Locator, Page } from "@playwright/test";
import { expect, expectNoAxeViolations, type Service, test } from "./fixtures";

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const MB = 1024 * 1024;
const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");

interface LocalFile {
  /** Path under the dropped folder's parent: `Plates/shots/b.bin`. */
  relativePath: string;
  absolute: string;
  sha256: string;
}

/** A folder `name` on disk with two large files (one in a subfolder) and a small one. */
function makeFolder(name: string): { dir: string; root: string; files: LocalFile[] } {
  const dir = fs.mkdtempSync(nodePath.join(os.tmpdir(), "consign-e2e-transfers-"));
  const sizes: [string, number][] = [
    [`${name}/a.bin`, 24 * MB],
    [`${name}/shots/b.bin`, 20 * MB],
    [`${name}/shots/notes.txt`, 300],
  ];
  const files = sizes.map(([relativePath, size]) => {
    const absolute = nodePath.join(dir, relativePath);
    fs.mkdirSync(nodePath.dirname(absolute), { recursive: true });
    const bytes = crypto.randomBytes(size);
    fs.writeFileSync(absolute, bytes);
    return { relativePath, absolute, sha256: sha256(bytes) };
  });
  return { dir, root: nodePath.join(dir, name), files };
}

/**
 * Drops the files on `target` as the desktop would: a DataTransfer of File objects read from
 * disk (through a file input the test adds), each with its path under the dropped folder.
 */
async function dropFiles(page: Page, target: Locator, files: LocalFile[]) {
  await page.evaluate(() => {
    const input = document.createElement("input");
    input.type = "file";
    input.multiple = true;
    input.id = "e2e-drop-source";
    input.hidden = true;
    document.body.append(input);
  });
  await page.setInputFiles(
    "#e2e-drop-source",
    files.map((f) => f.absolute),
  );
  await target.evaluate(
    (target, paths) => {
      const input = document.getElementById("e2e-drop-source") as HTMLInputElement;
      const data = new DataTransfer();
      for (const [i, file] of [...input.files!].entries()) {
        Object.defineProperty(file, "webkitRelativePath", { value: paths[i] });
        data.items.add(file);
      }
      input.remove();
      for (const type of ["dragenter", "dragover", "drop"])
        target.dispatchEvent(
          new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }),
        );
    },
    files.map((f) => f.relativePath),
  );
}

interface FileEntry {
  name: string;
  path: string;
  sha256: string | null;
  type: string;
}

const listing = async (service: Service, path: string) =>
  (
    await service.api<{ items: FileEntry[] }>(
      "GET",
      `/files?path=${encodeURIComponent(path)}&limit=100`,
    )
  ).items;

/** Bytes the tray says are uploaded (its line: "… · 12.3 MB of 44.0 MB"). */
async function trayBytes(page: Page): Promise<string> {
  const line = page.getByRole("region", { name: "Uploads" }).getByText(/ of .* files · /);
  return (await line.textContent()) ?? "";
}

test("a folder dropped on Files uploads with its structure; pause, resume, and a reload resume from the node's offset", async ({
  page,
  service,
}) => {
  test.setTimeout(240_000);
  const top = `Uploads ${unique()}`;
  await service.api("POST", "/files/folder", { path: top });
  const name = `Plates ${unique()}`;
  const label = `Upload of “${name}”`;
  const local = makeFolder(name);
  const mine = async () =>
    (await listTransfers(service)).find((t) => t.paths?.[0]?.destination === `${top}/${name}`);
  try {
    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    await page.goto(`/files?path=${encodeURIComponent(top)}`);
    await expect(page.getByText("This folder is empty")).toBeVisible();

    // Slow uploads to a pace a person could pause (loopback would finish before any click).
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 3 * MB,
    });

    const tray = page.getByRole("region", { name: "Uploads" });
    // Each page's engine reports on its own (the reload's page sends its report as it goes).
    const reports: { at: number; status: string; page: number }[] = [];
    let pageNumber = 0;
    page.on("load", () => pageNumber++);
    page.on("request", (r) => {
      if (r.method() === "PATCH" && /\/v1\/workspaces\/[^/]+\/transfers\//.test(r.url()))
        reports.push({ at: Date.now(), status: r.postDataJSON().status, page: pageNumber });
    });
    await dropFiles(page, page.getByText("This folder is empty"), local.files);
    await expect(tray).toBeVisible();
    await expect(tray.getByText(label)).toBeVisible();
    await expect(page.getByRole("link", { name: "1 upload in progress" })).toBeVisible();

    // Pause: nothing moves while paused; Resume goes on.
    await expect.poll(() => trayBytes(page), { timeout: 30_000 }).toMatch(/· [1-9][\d.]* MB of/);
    await tray.getByRole("button", { name: `Pause ${label}` }).click();
    await expect(tray.getByText(/^Paused ·/)).toBeVisible();
    const paused = await trayBytes(page);
    await page.waitForTimeout(2_000);
    expect(await trayBytes(page)).toBe(paused);
    await expect.poll(async () => (await mine())?.status).toBe("paused");
    await tray.getByRole("button", { name: `Resume ${label}` }).click();
    await expect(tray.getByText(/^Uploading ·/)).toBeVisible();
    await expect.poll(() => trayBytes(page)).not.toBe(paused);

    // Reload mid-upload: the upload waits for its files, then resumes from the node's offset.
    await page.reload();
    await expect(tray.getByText(/Waiting for files/)).toBeVisible();
    // The page that went away told the service its upload stopped moving.
    await expect.poll(async () => (await mine())?.status).toBe("paused");
    const resumed: { method: string; offset: number }[] = [];
    page.on("request", (r) => {
      if (!r.url().includes("/node/v1/uploads/")) return;
      resumed.push({ method: r.method(), offset: Number(r.headers()["upload-offset"] ?? -1) });
    });
    await tray.getByLabel(`Folder to resume ${label}`, { exact: true }).setInputFiles(local.root);
    await expect(tray.getByText(/^Uploading ·/)).toBeVisible();
    // tus asked where each started upload stood (HEAD) and went on from there, not from zero.
    await expect.poll(() => resumed.some((r) => r.method === "HEAD")).toBe(true);
    await expect
      .poll(() => resumed.find((r) => r.method === "PATCH")?.offset ?? -1)
      .toBeGreaterThan(0);

    // A dropped connection: tus retries by itself, and the tray says it is reconnecting.
    const network = (offline: boolean) =>
      cdp.send("Network.emulateNetworkConditions", {
        offline,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      });
    await network(true);
    await expect(tray.getByText(/^Reconnecting… ·/)).toBeVisible();
    await network(false);
    await expect(page.getByText(`Uploaded 3 files to “${top}”`)).toBeVisible({ timeout: 60_000 });
    // Progress went to the service at most once a second, a change of status at once (seen from
    // here, requests are timed with some jitter on a busy machine; per chunk would be far closer).
    expect(reports.length).toBeGreaterThan(3);
    for (const [i, r] of reports.entries()) {
      const before = reports[i - 1];
      if (before && before.status === r.status && before.page === r.page)
        expect(r.at - before.at, `report ${i} (${r.status})`).toBeGreaterThan(700);
    }
    // The tray stays with the finished upload (and a link to its folder) until cleared.
    await expect(tray.getByRole("link", { name: `Open “${top}”` })).toBeVisible();
    await expectNoAxeViolations(page);

    // The files are in the workspace with their structure and their exact bytes.
    const plates = await listing(service, `${top}/${name}`);
    expect(plates.map((e) => e.name).sort()).toEqual(["a.bin", "shots"]);
    const shots = await listing(service, `${top}/${name}/shots`);
    expect(Object.fromEntries(shots.map((e) => [e.name, e.sha256]))).toEqual({
      "b.bin": local.files[1]!.sha256,
      "notes.txt": local.files[2]!.sha256,
    });
    expect(plates.find((e) => e.name === "a.bin")!.sha256).toBe(local.files[0]!.sha256);
    // No byte went twice: the node took each file's bytes once, resumed or not.
    const send = await mine();
    expect(send).toMatchObject({ status: "completed", filesDone: 3, bytesDone: 44 * MB + 300 });

    // The file browser shows what arrived.
    await expect(page.getByRole("row", { name })).toBeVisible();
    await page.getByRole("row", { name }).dblclick();
    await expect(page.getByRole("row", { name: /a\.bin/ })).toBeVisible();

    // And the monitor, light and dark.
    await page.goto("/transfers");
    const row = page.getByRole("row", { name: new RegExp(label) });
    await expect(row).toContainText("Completed");
    await expectNoAxeViolations(page);
    await row.getByRole("button", { name: new RegExp(`^${label}`) }).click();
    const drawer = page.getByRole("dialog", { name: label });
    await expect(drawer).toContainText("3 / 3");
    await expect(drawer.getByRole("link", { name: `Open “${top}”` })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.keyboard.press("Escape");
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoAxeViolations(page);
  } finally {
    fs.rmSync(local.dir, { recursive: true, force: true });
  }
});

interface TransferRecord {
  id: string;
  direction: string;
  status: string;
  filesDone: number;
  bytesDone: number;
  bytesServed?: number;
  paths?: { source: string; destination: string }[];
}
const listTransfers = (service: Service) =>
  service.api<TransferRecord[]>("GET", "/transfers?limit=200");

test("from the monitor, one file pauses, resumes or is cancelled on its own; the cancelled one never appears and the rest complete", async ({
  page,
  service,
}) => {
  test.setTimeout(120_000);
  const top = `Per file ${unique()}`;
  await service.api("POST", "/files/folder", { path: top });
  const name = `Reel ${unique()}`;
  const label = `Upload of “${name}”`;
  const local = makeFolder(name);
  try {
    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    await page.goto(`/files?path=${encodeURIComponent(top)}`);
    const cdp = await page.context().newCDPSession(page);
    const upload = (throughput: number) =>
      cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: throughput,
      });
    await cdp.send("Network.enable");
    await upload(2 * MB);
    await dropFiles(page, page.getByText("This folder is empty"), local.files);

    // Another tab of this browser sees the upload running, not waiting for files to resume it.
    const other = await page.context().newPage();
    await other.goto(service.signInUrl);
    await expect(other).toHaveURL(/\/files/);
    await other.goto("/transfers");
    await expect(other.getByRole("row", { name: new RegExp(label) })).toContainText("Running");
    await expect(other.getByRole("button", { name: /Choose files/ })).toHaveCount(0);
    await other.close();

    // The badge leads to the monitor; the engine keeps going (the page does not reload).
    await page.getByRole("link", { name: "1 upload in progress" }).click();
    await page
      .getByRole("row", { name: new RegExp(label) })
      .getByRole("button", { name: new RegExp(`^${label}`) })
      .click();
    const drawer = page.getByRole("dialog", { name: label });
    const a = drawer.getByRole("listitem").filter({ hasText: `${name}/a.bin` });
    await expect(a).toContainText("Uploading");
    await drawer.getByRole("button", { name: `Pause ${name}/a.bin` }).click();
    await expect(a).toContainText("Paused");
    await drawer.getByRole("button", { name: `Resume ${name}/a.bin` }).click();
    await expect(a).toContainText("Uploading");
    await expect(drawer.getByRole("listitem").filter({ hasText: "b.bin" })).toContainText(
      "Uploading",
    );
    await drawer.getByRole("button", { name: `Cancel ${name}/shots/b.bin` }).click();
    await expect(drawer.getByRole("listitem").filter({ hasText: "b.bin" })).toContainText(
      "Cancelled",
    );
    await upload(-1);

    const mine = async () =>
      (await listTransfers(service)).find((t) => t.paths?.[0]?.destination === `${top}/${name}`);
    await expect.poll(mine, { timeout: 60_000 }).toMatchObject({
      status: "completed",
      filesDone: 2,
    });
    // The cancelled file's partial upload never became a file.
    expect((await listing(service, `${top}/${name}/shots`)).map((e) => e.name)).toEqual([
      "notes.txt",
    ]);
    expect((await listing(service, `${top}/${name}`)).find((e) => e.name === "a.bin")?.sha256).toBe(
      local.files[0]!.sha256,
    );
  } finally {
    fs.rmSync(local.dir, { recursive: true, force: true });
  }
});

test("a file downloads through the node with its exact bytes, and the receive transfer completes", async ({
  page,
  service,
}) => {
  const top = `Downloads ${unique()}`;
  const text = `frame data ${crypto.randomBytes(2048).toString("hex")}\n`;
  const file = `cut ${unique()}.txt`;
  await service.writeFile(`${top}/${file}`, text);
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(top)}`);

  await page.getByRole("row", { name: file }).click({ button: "right" });
  const downloading = page.waitForEvent("download");
  await page.getByRole("menuitem", { name: "Download" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(file);
  const saved = await download.path();
  expect(sha256(fs.readFileSync(saved))).toBe(sha256(Buffer.from(text)));

  await expect
    .poll(
      async () =>
        (await listTransfers(service)).find((t) => t.paths?.[0]?.source === `${top}/${file}`),
      {
        timeout: 20_000,
      },
    )
    .toMatchObject({ status: "completed", bytesDone: Buffer.byteLength(text), filesDone: 1 });
  await page.goto("/transfers?direction=receive");
  await expect(page.getByRole("row", { name: `Download of “${file}”` })).toContainText("Completed");
});

test("a folder, and a selection, download as one ZIP holding their files' exact bytes", async ({
  page,
  service,
}) => {
  const top = `Zips ${unique()}`;
  const texts = {
    "Reel/a.txt": `reel a ${crypto.randomBytes(500).toString("hex")}`,
    "Reel/sub/b.txt": `reel b ${crypto.randomBytes(500).toString("hex")}`,
    "c.txt": `loose c ${crypto.randomBytes(500).toString("hex")}`,
  };
  for (const [path, text] of Object.entries(texts)) await service.writeFile(`${top}/${path}`, text);
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(top)}`);

  /** The ZIP's bytes: entries are stored, so each file's bytes appear in it as they are. */
  const downloadVia = async (click: () => Promise<void>) => {
    const downloading = page.waitForEvent("download");
    await click();
    const download = await downloading;
    return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
  };
  const folder = await downloadVia(async () => {
    await page.getByRole("row", { name: "Reel" }).click({ button: "right" });
    await page.getByRole("menuitem", { name: "Download" }).click();
  });
  expect(folder.name).toBe("Reel.zip");
  for (const key of ["Reel/a.txt", "Reel/sub/b.txt"] as const)
    expect(folder.bytes.includes(Buffer.from(texts[key]))).toBe(true);
  expect(folder.bytes.includes(Buffer.from(texts["c.txt"]))).toBe(false);

  await page.getByRole("row", { name: "Reel" }).getByRole("checkbox").check();
  await page.getByRole("row", { name: "c.txt" }).getByRole("checkbox").check();
  await expect(page.getByRole("region", { name: "Selection" })).toContainText("2 selected");
  const selection = await downloadVia(() =>
    page
      .getByRole("region", { name: "Selection" })
      .getByRole("button", { name: "Download" })
      .click(),
  );
  // The node names a ZIP of several items after the transfer.
  expect(selection.name).toMatch(/\.zip$/);
  for (const text of Object.values(texts))
    expect(selection.bytes.includes(Buffer.from(text))).toBe(true);
});

test("Save into a folder… writes a folder's files, with their structure, into a folder on this machine", async ({
  page,
  service,
}) => {
  // The browser's folder picker is a native dialog; the origin's private file system is the same
  // kind of handle, and the page can read back what was written into it.
  await page.addInitScript(() => {
    Object.assign(window, { showDirectoryPicker: () => navigator.storage.getDirectory() });
  });
  const top = `Saves ${unique()}`;
  const folder = `Reel ${unique()}`;
  const texts = {
    "a.txt": "first reel notes\n",
    "sub/b.txt": crypto.randomBytes(3000).toString("hex"),
  };
  for (const [path, text] of Object.entries(texts))
    await service.writeFile(`${top}/${folder}/${path}`, text);
  await page.goto(service.signInUrl);
  await expect(page).toHaveURL(/\/files/);
  await page.goto(`/files?path=${encodeURIComponent(top)}`);
  await page.getByRole("row", { name: folder }).click({ button: "right" });
  await page.getByRole("menuitem", { name: "Save into a folder…" }).click();
  await expect(page.getByText(/Saved 2 files into/)).toBeVisible();

  const written = await page.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const a = await (await root.getFileHandle("a.txt")).getFile();
    const sub = await root.getDirectoryHandle("sub");
    const b = await (await sub.getFileHandle("b.txt")).getFile();
    return { "a.txt": await a.text(), "sub/b.txt": await b.text() };
  });
  expect(written).toEqual(texts);
  await expect
    .poll(async () =>
      (await listTransfers(service)).find((t) => t.paths?.[0]?.source === `${top}/${folder}`),
    )
    .toMatchObject({ status: "completed", filesDone: 2 });
});

test.describe("at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the monitor lists a transfer and passes axe, light and dark", async ({ page, service }) => {
    await service.writeFile(`Narrow ${unique()}/a.txt`, "a");
    await service.api("POST", "/transfers", {
      direction: "send",
      client: "agent",
      paths: [{ source: "local/a", destination: `Narrow ${unique()}/a` }],
      fileCount: 1,
      totalBytes: 10,
    });
    await page.goto(service.signInUrl);
    await expect(page).toHaveURL(/\/files/);
    await page.goto("/transfers");
    await expect(page.getByRole("row", { name: /Upload of “a”/ }).first()).toBeVisible();
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page);
    await page.emulateMedia({ colorScheme: "dark" });
    await expectNoAxeViolations(page);
  });
});
