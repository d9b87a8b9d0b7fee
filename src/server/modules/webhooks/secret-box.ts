import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { SECRET_PREFIX } from "@/contract/webhooks";
import { randomBase62 } from "@/server/lib/ids";

export const newSigningSecret = () => `${SECRET_PREFIX}${randomBase62(32)}`;

/**
 * Signing secrets must be readable to sign, so they cannot be hashed like API keys. They are
 * sealed with AES-256-GCM under a key kept in its own file (mode 0600) beside the database:
 * a copy of the database alone (a backup, a support dump) does not reveal them.
 */
export class SecretBox {
  private key: Buffer | null = null;

  /**
   * `hasSealedSecrets` guards the first-use creation of the key file: once secrets sealed under
   * a key exist, a missing file means that key was lost or moved, and a fresh key would open none
   * of them while sealing new ones that the restored file could not open either.
   */
  constructor(
    private readonly keyFile: string,
    private readonly hasSealedSecrets: () => boolean = () => false,
  ) {}

  static inDataDir(dataDir: string, hasSealedSecrets?: () => boolean) {
    return new SecretBox(path.join(dataDir, "webhook-secrets.key"), hasSealedSecrets);
  }

  private loadKey(): Buffer {
    if (this.key) return this.key;
    try {
      this.key = Buffer.from(fs.readFileSync(this.keyFile, "utf8").trim(), "base64");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      if (this.hasSealedSecrets()) {
        throw new Error(
          `${this.keyFile} is missing, but the database holds signing secrets sealed with it; restore the file`,
        );
      }
      fs.mkdirSync(path.dirname(this.keyFile), { recursive: true });
      const fresh = randomBytes(32);
      try {
        // wx: when two processes race to create it, the loser reads the winner's key.
        fs.writeFileSync(this.keyFile, fresh.toString("base64"), { mode: 0o600, flag: "wx" });
        this.key = fresh;
      } catch (raceErr) {
        if ((raceErr as NodeJS.ErrnoException).code !== "EEXIST") throw raceErr;
        return this.loadKey();
      }
    }
    if (this.key.length !== 32) {
      this.key = null;
      throw new Error(`${this.keyFile} does not hold a 256-bit key`);
    }
    return this.key;
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.loadKey(), iv);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return [
      "v1",
      iv.toString("base64"),
      cipher.getAuthTag().toString("base64"),
      body.toString("base64"),
    ].join(".");
  }

  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split(".");
    if (version !== "v1" || !iv || !tag || !body) throw new Error("Unrecognised sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.loadKey(), Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    try {
      return Buffer.concat([
        decipher.update(Buffer.from(body, "base64")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      // Node's own message ("Unsupported state or unable to authenticate data") names no cause.
      throw new Error(`the secret was sealed with another key than the one in ${this.keyFile}`);
    }
  }
}
