/** @jsxImportSource preact */
import { useCallback, useEffect, useState } from "preact/hooks";
import { formatDateTime } from "@/browser/format";
import { SHARE_COMMENT_MAX } from "@/contract/rules";
import type { ShareComment } from "@/contract/shares";
import type { LinkApi } from "./share-api";

const authorOf = (c: ShareComment) =>
  c.author.name ?? c.author.email ?? (c.author.kind === "member" ? "Sender" : "Recipient");

/** The share's comment thread; a personal link comments under its recipient's address. */
export function Comments({ api, personal }: { api: LinkApi; personal: boolean }) {
  const [items, setItems] = useState<ShareComment[]>([]);
  const [body, setBody] = useState("");
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      setItems((await api.comments()).items);
    } catch (err) {
      setError((err as Error).message);
    }
  }, [api]);
  useEffect(() => {
    void load();
  }, [load]);

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const added = await api.addComment({
        body,
        ...(!personal && name.trim() ? { name: name.trim() } : {}),
      });
      setItems((prev) => [...prev, added]);
      setBody("");
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby="comments-title">
      <h2 id="comments-title">Comments</h2>
      {items.length === 0 ? (
        <p className="meta">No comments yet.</p>
      ) : (
        <ul className="comments">
          {items.map((c) => (
            <li key={c.id} className={c.parentId ? "reply" : undefined}>
              <p className="meta">
                <strong>{authorOf(c)}</strong> · {formatDateTime(c.createdAt)}
              </p>
              <p className="body">{c.body}</p>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={submit} className="comment-form">
        {!personal && (
          <>
            <label htmlFor="comment-name">Your name (optional)</label>
            <input
              id="comment-name"
              value={name}
              maxLength={200}
              autoComplete="name"
              onInput={(e) => setName(e.currentTarget.value)}
            />
          </>
        )}
        <label htmlFor="comment-body">Comment</label>
        <textarea
          id="comment-body"
          value={body}
          maxLength={SHARE_COMMENT_MAX}
          rows={3}
          onInput={(e) => setBody(e.currentTarget.value)}
        />
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy || !body.trim()}>
          Add comment
        </button>
      </form>
    </section>
  );
}
