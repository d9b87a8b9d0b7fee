import { parseArgs } from "node:util";
import { toIso } from "@/server/lib/clock";
import { fail, openCliContext, table } from "./cli-support";

const usage = `Usage:
  npm run members -- add --email <email> --name <name> [--role admin|member] [--json]
  npm run members -- remove <id|email>
  npm run members -- list [--json]
Common: [--workspace <id>] (default: the first workspace)`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: "string" },
    name: { type: "string" },
    role: { type: "string", default: "member" },
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
if (command === "add") {
  const { email, name, role } = values;
  if (!email || !/^[^\s@]+@[^\s@]+$/.test(email))
    fail(`--email must be an email address\n${usage}`);
  if (!name) fail(`--name is required\n${usage}`);
  if (role !== "admin" && role !== "member") fail("--role must be admin or member");
  // Only once the arguments are known good: on a fresh data dir this creates the workspace.
  const { directory, workspace } = await openCliContext(values.workspace);
  if (await directory.findMember(workspace.id, email)) fail(`${email} is already a member`);
  const m = await directory.addMember({ workspaceId: workspace.id, email, name, role });
  process.stdout.write(
    values.json
      ? `${JSON.stringify({ id: m.id, email: m.email, role: m.role })}\n`
      : `Added ${m.email} (${m.role}) as ${m.id}.\n`,
  );
} else if (command === "remove") {
  const who = rest[0];
  if (!who) fail(`remove needs a member id or email\n${usage}`);
  const { directory, workspace } = await openCliContext(values.workspace);
  const member = await directory.findMember(workspace.id, who);
  if (!member) fail(`No active member ${who}`);
  await directory.removeMember(member);
  process.stdout.write(`Removed ${member.email}. Keys they created stop working now.\n`);
} else if (command === "list") {
  const { directory, workspace } = await openCliContext(values.workspace);
  const rows = (await directory.members(workspace.id)).map((m) => ({
    id: m.id,
    email: m.email,
    name: m.name,
    role: m.role,
    joinedAt: toIso(m.joined_at),
  }));
  process.stdout.write(`${values.json ? JSON.stringify(rows) : table(rows)}\n`);
} else {
  fail(`Unknown command ${command}\n${usage}`);
}
