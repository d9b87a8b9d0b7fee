export const authKeys = {
  all: ["auth"] as const,
  keyInfo: (baseUrl: string, apiKeyHint: string) =>
    [...authKeys.all, "key", baseUrl, apiKeyHint] as const,
};
