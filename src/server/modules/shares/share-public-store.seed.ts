import { createDeps } from "@/server/deps";
import { testConfig } from "@/server/env";
import { ManualClock } from "@/server/lib/clock";
import { hashPassword } from "@/server/lib/passwords";
import { hashSecret } from "@/server/lib/secrets";
import { insertMessage } from "@/server/modules/mail/outbox.repository";
import { insertPasswordFailure } from "./activity.repository";
import { recordShareDownload, recordShareView } from "./share-access";
import { SEEDED, seedSqlite, sha, T0, WS } from "./shares-store.seed";

/*
 * The data share-public-store.test.ts runs its contract on: shares-store.seed.ts's shares, with
 * personal links, a password on two of them and, on the `active` one, a receipt's worth of
 * activity (views, downloads verified and not, a wrong password, a change, mail).
 */

export const PASSWORD = "open sesame";
// One hash for every seeding, so both engines hold the same rows (scrypt salts at random).
const passwordHash = hashPassword(PASSWORD);

/** Personal links' tokens, by recipient row (shares-store.seed.ts names them share id + rN). */
export const PERSONAL = {
  activeAna: { token: "PersonalAnaOnActive0000000000001", recipient: `${SEEDED.active}r0` },
  personalBo: { token: "PersonalBoOnPersonal000000000001", recipient: `${SEEDED.personal}r0` },
  personalAna: { token: "PersonalAnaOnPersonal00000000001", recipient: `${SEEDED.personal}r1` },
} as const;

/** The plain link's token of a seeded share, as shares-store.seed.ts made it. */
export const plainToken = (name: keyof typeof SEEDED) =>
  `seedToken${Object.keys(SEEDED).indexOf(name)}`.padEnd(22, "x");

export const ADDRESS = "203.0.113.7";
const HOUR = 3_600_000;

export async function seedPublic() {
  const seeded = seedSqlite();
  const { db } = seeded;
  const clock = new ManualClock(T0 - 5 * HOUR);
  const deps = createDeps(testConfig(seeded.dir), { clock, db });
  const hash = await passwordHash;
  db.transaction(() => {
    for (const { token, recipient } of Object.values(PERSONAL))
      db.prepare(
        "INSERT INTO share_links (token_hash, share_id, recipient_id, created_at) VALUES (?, ?, ?, ?)",
      ).run(hashSecret(token), recipient.slice(0, -2), recipient, T0 - HOUR);
    db.prepare("UPDATE shares SET password_hash = ? WHERE id IN (?, ?)").run(
      hash,
      SEEDED.personal,
      SEEDED.opened,
    );
  })();
  const ana = PERSONAL.activeAna.recipient;
  recordShareView(deps, { shareId: SEEDED.active, recipientId: ana, address: ADDRESS });
  clock.advance(HOUR);
  recordShareView(deps, { shareId: SEEDED.active, recipientId: null, address: null });
  insertPasswordFailure(db, {
    share_id: SEEDED.active,
    recipient_id: null,
    address: ADDRESS,
    failed_at: clock.now(),
  });
  const files = [
    { path: "Deliveries/cut/reel1.mov", bytes: 1000, sha256: sha(1) },
    { path: "Deliveries/cut/reel2.mov", bytes: 2000, sha256: sha(2) },
  ];
  const download = (recipientId: string | null, f: typeof files, completedAt: number | null) =>
    recordShareDownload(deps, {
      shareId: SEEDED.active,
      recipientId,
      address: ADDRESS,
      startedAt: clock.now() - 1000,
      completedAt,
      files: f,
    });
  download(ana, files, clock.now());
  clock.advance(HOUR);
  download(null, [files[0]!, { ...files[1]!, sha256: sha(9) }], clock.now());
  download(null, files.slice(0, 1), null);
  db.prepare(
    `INSERT INTO share_changes (share_id, changed_at, expires_at, previous_expires_at, max_downloads, previous_max_downloads)
     VALUES (?, ?, ?, ?, 9, NULL)`,
  ).run(SEEDED.active, clock.now(), T0 + 20 * 86_400_000, T0 + 7 * 86_400_000);
  insertMessage(db, {
    id: "00imail0000000000000000001",
    workspace_id: WS,
    share_id: SEEDED.active,
    portal_id: null,
    recipient_id: ana,
    channel: "email",
    to_address: "ana@example.com",
    subject: "cut",
    body: "Files for you",
    link: null,
    status: "failed",
    error: "550 mailbox unavailable",
    created_at: T0 - 9 * HOUR,
  });
  return seeded;
}
