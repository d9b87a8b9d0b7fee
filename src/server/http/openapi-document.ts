import type { OpenAPIHono } from "@hono/zod-openapi";
import type { AppEnv } from "./types";

/** Where the document is served, inside /v1; served without a key (see pipeline.ts). */
export const OPENAPI_PATH = "/openapi.json";

/** Registers the security schemes every `apiRoute` names and serves the OpenAPI 3.1 document. */
export function serveOpenApiDocument(v1: OpenAPIHono<AppEnv>) {
  v1.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    description:
      "A workspace API key, `svc_sk_` followed by 40 base62 characters. Each operation lists in `security` (and `x-scopes`) the scopes that allow it; any one is enough.",
  });
  v1.openAPIRegistry.registerComponent("securitySchemes", "uploadToken", {
    type: "http",
    scheme: "bearer",
    description:
      "A portal upload's transfer token (`transferSpec.token` from startPortalUpload), for that upload's own requests.",
  });
  v1.doc31(OPENAPI_PATH, {
    openapi: "3.1.0",
    info: {
      title: "Workspace File Delivery Service (Consign reference service)",
      version: "1.0.0",
      // OpenAPI 3.1's `identifier` (an SPDX expression); the generator's types predate it.
      license: { name: "Proprietary", identifier: "LicenseRef-Consign-Proprietary" } as {
        name: string;
      },
      description:
        "Version 1 of the interface. Operations marked `x-consign-extension` are not in the interface specification; clients must not depend on them. Design decisions for parts the specification leaves open are listed in docs/api-decisions.md. Every string of a request must be well-formed Unicode (no lone surrogate), and `minLength`/`maxLength` count UTF-16 code units as the service does: a character outside the Basic Multilingual Plane (most emoji) counts as two.",
    },
    servers: [{ url: "/v1" }],
  });
}
