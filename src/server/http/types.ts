import type { Scope } from "@/contract/common";
import type { AppDeps } from "@/server/deps";

export interface AuthContext {
  keyId: string;
  workspaceId: string;
  memberId: string;
  scopes: Scope[];
}

export type AppEnv = {
  Variables: {
    requestId: string;
    auth: AuthContext;
    deps: AppDeps;
  };
};
