export const eventsKeys = {
  all: (workspaceId: string) => ["events", workspaceId] as const,
  /** One tail session: a new `session` (Jump to latest, a new filter) starts from the head. */
  tail: (workspaceId: string, type: string | undefined, session: number) =>
    [...eventsKeys.all(workspaceId), "tail", { type: type ?? null, session }] as const,
};
