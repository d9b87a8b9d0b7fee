import { z } from "zod";
import { dateTime, scopeSchema } from "./common";

export { API_KEY_PREFIX, apiKeyPattern } from "./rules";

/**
 * Extension: what the calling key is. Lets the console find the workspace id for a key;
 * a console talking to a service without it asks the person for the workspace id instead.
 */
export const keyInfoSchema = z
  .object({
    key: z.object({
      id: z.string(),
      name: z.string().nullable(),
      hint: z.string().meta({ description: "The key's last four characters, for recognising it" }),
      scopes: z.array(scopeSchema).min(1),
      expiresAt: dateTime().nullable(),
      createdAt: dateTime(),
    }),
    workspace: z.object({ id: z.string(), name: z.string() }),
    member: z.object({
      id: z.string(),
      name: z.string(),
      email: z.string(),
      role: z.enum(["admin", "member"]),
    }),
  })
  .meta({ id: "KeyInfo" });
export type KeyInfo = z.infer<typeof keyInfoSchema>;
