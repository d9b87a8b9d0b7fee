import { keysCreateCommand } from "./cli/cli-support";
import { loadConfig } from "./env";
import { publicKeyText, signingKey } from "./modules/transfers/transfer-token";
import { startService } from "./server";

const config = loadConfig();
const service = await startService(config);
const { boot, url, deps } = service;

// What a person must read goes to stdout; structured logs go to stderr and never carry the key.
const out = (line = "") => process.stdout.write(`${line}\n`);
out(`Consign is running at ${url}  (workspace "${boot.workspace.name}", id ${boot.workspace.id})`);
if (boot.created) {
  out(
    "Open this link to sign in to the console. It holds an admin key and is shown only this once:",
  );
  out(`  ${url}/#key=${boot.adminKey}`);
} else {
  out("To sign in, create a key and paste it on the connect screen:");
  out(`  ${keysCreateCommand(config.dataDir)}`);
}
// The key a standalone data node is given (NODE_TOKEN_PUBLIC_KEYS) to check transfer tokens.
const tokenKey = signingKey(config.dataDir);
deps.log.info("service started", {
  url,
  dataDir: config.dataDir,
  workspaceId: boot.workspace.id,
  nodeTokenPublicKey: publicKeyText(tokenKey.publicKey),
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    deps.log.info("shutting down", { signal });
    service.stop().then(
      () => process.exit(0),
      (err) => {
        deps.log.error("shutdown failed", { err });
        process.exit(1);
      },
    );
  });
}
