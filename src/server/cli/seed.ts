import fs from "node:fs";
import { parseArgs } from "node:util";
import { normalizeName, pathProblem } from "@/contract/rules";
import { seedEntries, seedTree } from "@/server/modules/files/bulk-seed";
import { fail, openCliContext } from "./cli-support";

const usage = `Usage: npm run seed -- --entries N --folder PATH [--tree] [--workspace ID]
       npm run seed -- --write PATH (--text TEXT | --from FILE) [--workspace ID]
  Adds N entries (about one folder in fifty, files sharing one small blob) to PATH.
  --tree spreads them over subfolders of 1,000 entries each (for million-entry trees).
  --write puts TEXT (or the bytes of a local FILE) in the file at PATH, creating its folders;
  writing over a file with other content keeps the old content as a version.`;

const { values } = parseArgs({
  options: {
    entries: { type: "string" },
    folder: { type: "string", default: "Seed" },
    tree: { type: "boolean", default: false },
    write: { type: "string" },
    text: { type: "string", default: "" },
    from: { type: "string" },
    workspace: { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
if (values.write !== undefined) {
  // Normalised as the API normalises a path, so the file is the one the API names.
  const target = normalizeName(values.write);
  const problem = pathProblem(target);
  if (problem || !target) fail(`--write: the path ${problem ?? "must name a file"}`);
  const { db, files, workspace } = openCliContext(values.workspace);
  const bytes = values.from ? fs.readFileSync(values.from) : Buffer.from(values.text!);
  const entry = await files.writeFile(workspace.id, target, bytes);
  db.close();
  process.stdout.write(`Wrote "${entry.path}" (${entry.sizeBytes} bytes)\n`);
  process.exit(0);
}

const entries = Number(values.entries);
if (!Number.isInteger(entries) || entries < 1) fail(usage);
const folder = normalizeName(values.folder!);
const problem = pathProblem(folder);
if (problem || !folder) fail(`--folder: the path ${problem ?? "must name a folder"}`);

const { db, files, workspace } = openCliContext(values.workspace);
const started = performance.now();
await (values.tree ? seedTree : seedEntries)(files, workspace.id, folder, entries);
db.close();
process.stdout.write(
  `Added ${entries.toLocaleString("en")} entries to "${folder}" in ${Math.round(performance.now() - started)} ms\n`,
);
