import { keyInfoSchema } from "@/contract/auth";
import { apiRoute, json } from "@/server/http/router";

export const getKeyInfoRoute = apiRoute({
  operationId: "getKeyInfo",
  method: "get",
  path: "/auth/key",
  tags: ["Extensions"],
  summary: "Describe the calling key: its workspace, scopes, expiry and creator",
  description:
    "Extension. Lets a client learn the workspace id bound to a key. Clients must cope with a 404 from services without it.",
  scopes: [],
  extension: true,
  responses: { 200: json(keyInfoSchema, "The calling key") },
});
