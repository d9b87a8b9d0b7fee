import { parseArgs } from "node:util";
import { scopes as allScopes, type Scope } from "@/contract/common";
import { toIso, toIsoOrNull } from "@/server/lib/clock";
import { fail, openCliContext, parseExpiry, table, whereLine } from "./cli-support";

const usage = `Usage:
  npm run keys -- create --scopes <comma list|all> [--expires <ISO 8601 date or date-time>] [--name <text>] [--member <id|email>] [--json]
  npm run keys -- list [--json]
  npm run keys -- revoke <id>
Common: [--workspace <id>] (default: the first workspace)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    scopes: { type: "string" },
    expires: { type: "string" },
    name: { type: "string" },
    member: { type: "string" },
    workspace: { type: "string" },
    json: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});
const [command, ...rest] = positionals;
if (values.help || !command) {
  process.stdout.write(`${usage}\n`);
  process.exit(values.help ? 0 : 1);
}

const now = Date.now();

if (command === "create") {
  if (!values.scopes) fail(`--scopes is required\n${usage}`);
  const requested =
    values.scopes === "all" ? [...allScopes] : values.scopes.split(",").map((s) => s.trim());
  const unknown = requested.filter((s) => !(allScopes as readonly string[]).includes(s));
  if (unknown.length || requested.length === 0)
    fail(`Unknown scope(s): ${unknown.join(", ")}. Known: ${allScopes.join(", ")}`);
  let expiresAt: number | null = null;
  if (values.expires !== undefined) {
    const expiry = parseExpiry(values.expires, now);
    if (!expiry.ok) fail(expiry.message);
    expiresAt = expiry.at;
  }
  // Only once the arguments are known good: on a fresh data dir this creates the workspace.
  const { directory, workspace } = await openCliContext(values.workspace);
  // Keys act as the member who created them (spec Authentication 2): default to the first admin.
  const member = values.member
    ? await directory.findMember(workspace.id, values.member)
    : (await directory.members(workspace.id)).find((m) => m.role === "admin");
  if (!member)
    fail(values.member ? `No active member ${values.member}` : "No admin member to own the key");
  if (member.role !== "admin") fail(`Only admins create keys; ${member.email} is a ${member.role}`);
  const { key, record } = await directory.createKey({
    workspaceId: workspace.id,
    memberId: member.id,
    scopes: requested as Scope[],
    expiresAt,
    name: values.name ?? null,
  });
  if (values.json) {
    process.stdout.write(
      `${JSON.stringify({ id: record.id, key, workspaceId: workspace.id, scopes: record.scopes, expiresAt: toIsoOrNull(expiresAt) })}\n`,
    );
  } else {
    process.stdout.write(
      `Created key ${record.id} for ${member.email} with ${record.scopes.join(", ")}${expiresAt ? `, expiring ${toIso(expiresAt)}` : ""},\nin ${whereLine(workspace)}.\nIt is shown only this once:\n  ${key}\n`,
    );
  }
} else if (command === "list") {
  const { directory, workspace } = await openCliContext(values.workspace);
  const members = new Map((await directory.members(workspace.id)).map((m) => [m.id, m.email]));
  const keys = (await directory.keys(workspace.id)).map((k) => ({
    id: k.id,
    name: k.name,
    hint: `…${k.hint}`,
    scopes: k.scopes.join(","),
    creator: members.get(k.memberId) ?? "(removed)",
    // What a request with the key is told, checked in the same order as authentication does.
    status: k.revokedAt
      ? "revoked"
      : k.expiresAt !== null && k.expiresAt <= now
        ? "expired"
        : members.has(k.memberId)
          ? "active"
          : "creator_removed",
    expiresAt: toIsoOrNull(k.expiresAt),
    lastUsedAt: toIsoOrNull(k.lastUsedAt),
  }));
  process.stdout.write(
    values.json
      ? `${JSON.stringify(keys)}\n`
      : `Keys of ${whereLine(workspace)}:\n${table(keys)}\n`,
  );
} else if (command === "revoke") {
  const id = rest[0];
  if (!id) fail(`revoke needs a key id\n${usage}`);
  const { directory, workspace } = await openCliContext(values.workspace);
  const key = await directory.key(id);
  if (!key || key.workspaceId !== workspace.id) fail(`No key ${id}`);
  if (!(await directory.revokeKey(id))) fail(`Key ${id} was already revoked`);
  process.stdout.write(
    `Revoked key ${id} of ${whereLine(workspace)}. Requests with it now get 401.\n`,
  );
} else {
  fail(`Unknown command ${command}\n${usage}`);
}
