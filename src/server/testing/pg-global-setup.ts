import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres-server";

declare module "vitest" {
  export interface ProvidedContext {
    /** A real PostgreSQL server for the run (the superuser's URL); tests make their own databases. */
    postgres: { url: string };
  }
}

export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide("postgres", { url: server.url });
  return () => server.stop();
}
