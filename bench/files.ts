/**
 * npm run bench:files: the service half (bench/files-service.ts) and then the console half
 * (bench/files-browser.ts), each in its own process so neither one's heap or event loop
 * colours the other's figures.
 */
import { spawn } from "node:child_process";
import { root } from "./support";

function runPart(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", file], {
      cwd: root,
      stdio: "inherit",
    });
    child.once("error", reject);
    child.once("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

let failed = false;
for (const part of ["bench/files-service.ts", "bench/files-browser.ts"]) {
  console.log(`\n== ${part}`);
  const code = await runPart(part);
  if (code !== 0) {
    console.log(`${part} exited with ${code}`);
    failed = true;
  }
}
process.exitCode = failed ? 1 : 0;
