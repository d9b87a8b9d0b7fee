import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SecretBox } from "./secret-box";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "consign-secret-box-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe("SecretBox", () => {
  it("creates its key file on first use when nothing is sealed yet, and opens what it sealed", () => {
    const box = SecretBox.inDataDir(dir, () => false);
    const sealed = box.seal("whsec_a");
    expect(box.open(sealed)).toBe("whsec_a");
    expect(fs.statSync(path.join(dir, "webhook-secrets.key")).mode & 0o777).toBe(0o600);
    expect(SecretBox.inDataDir(dir).open(sealed)).toBe("whsec_a");
  });

  it("refuses to make a new key while sealed secrets exist, and works again once the file is back", () => {
    const sealed = SecretBox.inDataDir(dir).seal("whsec_a");
    const file = path.join(dir, "webhook-secrets.key");
    const key = fs.readFileSync(file);
    fs.rmSync(file);
    const box = SecretBox.inDataDir(dir, () => true);
    expect(() => box.open(sealed)).toThrow(/webhook-secrets\.key is missing/);
    expect(() => box.seal("whsec_b")).toThrow(/webhook-secrets\.key is missing/);
    expect(fs.existsSync(file)).toBe(false);
    fs.writeFileSync(file, key);
    expect(box.open(sealed)).toBe("whsec_a");
  });

  it("names a replaced key as the cause", () => {
    const sealed = SecretBox.inDataDir(dir).seal("whsec_a");
    const other = fs.mkdtempSync(path.join(os.tmpdir(), "consign-secret-box-"));
    try {
      expect(() => SecretBox.inDataDir(other).open(sealed)).toThrow(/sealed with another key/);
    } finally {
      fs.rmSync(other, { recursive: true, force: true });
    }
  });
});
