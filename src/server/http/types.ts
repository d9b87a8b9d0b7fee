import type { HttpBindings } from "@hono/node-server";
import type { Scope } from "@/contract/common";
import type { AppDeps } from "@/server/deps";

export interface AuthContext {
  keyId: string;
  workspaceId: string;
  memberId: string;
  scopes: Scope[];
}

export type AppEnv = {
  /** The Node request and response; absent in-process (tests call `app.request`). */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    auth: AuthContext;
    deps: AppDeps;
  };
};
