import { startServiceProcess } from "./service-process";

/**
 * Starts the real service (built console included) on a temporary data dir, the way a person
 * runs it, and hands the printed sign-in URL to the tests through the environment.
 */
export default async function globalSetup() {
  const service = await startServiceProcess({
    WEBHOOKS_ALLOW_PRIVATE: "1",
    // A short rate window keeps the 429 journey quick: Retry-After is at most a few seconds.
    RATE_LIMIT_WINDOW_SECONDS: "4",
  });
  const { origin, signInUrl, adminKey, dataDir } = service;
  const info = await fetch(`${origin}/v1/auth/key`, {
    headers: { Authorization: `Bearer ${adminKey}` },
  });
  const workspaceId = ((await info.json()) as { workspace: { id: string } }).workspace.id;

  process.env.E2E_SERVICE = JSON.stringify({ origin, signInUrl, adminKey, workspaceId, dataDir });
  return service.stop;
}
