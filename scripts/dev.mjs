// `npm run dev`: the service (restarted on change) and Vite with hot reload, which proxies /v1 to it.
// The printed sign-in link points at Vite, so the console opens with hot reload.
import { spawn } from "node:child_process";

const vitePort = process.env.VITE_PORT ?? "5173";
const children = [
  spawn(process.execPath, ["--import", "tsx", "--watch", "src/server/main.ts"], {
    stdio: "inherit",
    env: { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? `http://127.0.0.1:${vitePort}` },
  }),
  spawn(
    process.execPath,
    ["node_modules/vite/bin/vite.js", "--host", "127.0.0.1", "--port", vitePort, "--strictPort"],
    {
      stdio: "inherit",
    },
  ),
];
const stop = () => {
  for (const c of children) c.kill("SIGTERM");
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const c of children)
  c.on("exit", (code) => {
    stop();
    process.exitCode = code ?? 0;
  });
