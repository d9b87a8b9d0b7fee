import fs from "node:fs";
import { parseArgs } from "node:util";
import { normalizeName, pathProblem } from "@/contract/rules";
import { fail } from "./cli-support";
import { seedFolder, writeSeedFile } from "./seed-files";

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
  const target = normalizeName(values.write);
  const problem = pathProblem(target);
  if (problem || !target) fail(`--write: the path ${problem ?? "must name a file"}`);
  const bytes = values.from ? fs.readFileSync(values.from) : Buffer.from(values.text!);
  const entry = await writeSeedFile(target, bytes, { workspace: values.workspace });
  process.stdout.write(`Wrote "${entry.path}" (${entry.sizeBytes} bytes)\n`);
  process.exit(0);
}

const entries = Number(values.entries);
if (!Number.isInteger(entries) || entries < 1) fail(usage);
const folder = normalizeName(values.folder!);
const problem = pathProblem(folder);
if (problem || !folder) fail(`--folder: the path ${problem ?? "must name a folder"}`);

const started = performance.now();
await seedFolder(folder, entries, { tree: values.tree, workspace: values.workspace });
process.stdout.write(
  `Added ${entries.toLocaleString("en")} entries to "${folder}" in ${Math.round(performance.now() - started)} ms\n`,
);
