/** What a per-item batch did: the service has no batch restore or purge, so some may fail. */
export interface BatchOutcome {
  done: string[];
  failed: { id: string; error: unknown }[];
}

/**
 * Runs `run` for every id, in order and one at a time: restores of items with the same
 * original path then resolve their "(restored)" names in the order the person sees them.
 */
export async function runEach(
  ids: string[],
  run: (id: string) => Promise<unknown>,
): Promise<BatchOutcome> {
  const outcome: BatchOutcome = { done: [], failed: [] };
  for (const id of ids) {
    try {
      await run(id);
      outcome.done.push(id);
    } catch (error) {
      outcome.failed.push({ id, error });
    }
  }
  return outcome;
}
