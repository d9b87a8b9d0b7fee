/**
 * The review queue's keyboard state, apart from React so it is tested on its own: which row is
 * active (its id, and the place it held, for when it leaves the list), and the row whose
 * rejection note is being typed.
 */

export interface QueueCursor {
  id: string | null;
  index: number;
}

export interface QueueState {
  cursor: QueueCursor;
  /** The upload whose rejection note is open. */
  rejecting: string | null;
}

export const initialQueueState: QueueState = { cursor: { id: null, index: 0 }, rejecting: null };

/** The active row among `ids`: its own row while listed, else the place it held; -1 for none. */
export function cursorIndex(ids: readonly string[], cursor: QueueCursor): number {
  if (ids.length === 0) return -1;
  const at = cursor.id === null ? -1 : ids.indexOf(cursor.id);
  return at >= 0 ? at : Math.max(0, Math.min(cursor.index, ids.length - 1));
}

const at = (ids: readonly string[], index: number): QueueCursor => {
  const i = Math.max(0, Math.min(index, ids.length - 1));
  return { id: ids[i] ?? null, index: i };
};

/**
 * Where the queue goes once the row at `index` is decided: to the next row. When the filter
 * hides the decided row the next one slides into its place, so the active row stays put; when
 * the row stays listed the cursor steps down to the next one. At the end it stays (or, if the
 * last row left, goes to the one before).
 */
export function advanceAfterDecision(
  ids: readonly string[],
  index: number,
  hides: boolean,
): QueueCursor {
  const next = ids[index + 1];
  if (next !== undefined) return { id: next, index: hides ? index : index + 1 };
  if (!hides) return at(ids, index);
  return index > 0 ? { id: ids[index - 1]!, index: index - 1 } : { id: null, index: 0 };
}

export type QueueAction =
  | { type: "move"; ids: readonly string[]; to: "next" | "previous" | "first" | "last" }
  | { type: "select"; ids: readonly string[]; index: number }
  | { type: "decided"; ids: readonly string[]; id: string; hides: boolean }
  | { type: "startReject"; id: string }
  | { type: "cancelReject" };

export function queueReducer(state: QueueState, action: QueueAction): QueueState {
  switch (action.type) {
    case "move": {
      const { ids } = action;
      if (ids.length === 0) return state;
      const from = cursorIndex(ids, state.cursor);
      const to =
        action.to === "next"
          ? from + 1
          : action.to === "previous"
            ? from - 1
            : action.to === "first"
              ? 0
              : ids.length - 1;
      return { cursor: at(ids, to), rejecting: null };
    }
    case "select": {
      const cursor = at(action.ids, action.index);
      if (cursor.id === state.cursor.id && cursor.index === state.cursor.index) return state;
      return { cursor, rejecting: state.rejecting === cursor.id ? state.rejecting : null };
    }
    case "decided": {
      const index = action.ids.indexOf(action.id);
      if (index < 0) return { ...state, rejecting: null };
      return { cursor: advanceAfterDecision(action.ids, index, action.hides), rejecting: null };
    }
    case "startReject":
      return { ...state, rejecting: action.id };
    case "cancelReject":
      return state.rejecting === null ? state : { ...state, rejecting: null };
  }
}
