/** @jsxImportSource preact */
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { ApiError } from "@/browser/api-error";
import { formatDateTime } from "@/browser/format";
import { SHARE_LINK_PREFIX } from "@/contract/rules";
import type { PublicShare } from "@/contract/share-public";
import { PasswordGate } from "@/public/common/password-gate";
import { Comments } from "./comments";
import { LinkApi } from "./share-api";
import { SharedFileList } from "./shared-file-list";

type Load =
  | { state: "loading" }
  | { state: "open"; share: PublicShare }
  | { state: "closed"; reason: string | null; message: string };

const tokenFromPath = () => decodeURIComponent(location.pathname.slice(SHARE_LINK_PREFIX.length));

const closedText: Record<string, { title: string; text: string }> = {
  share_expired: {
    title: "This link has expired",
    text: "The files are no longer available here. Ask the sender for a new link.",
  },
  share_revoked: {
    title: "This link was withdrawn",
    text: "The sender has stopped sharing these files. Ask them if you still need them.",
  },
  share_exhausted: {
    title: "This link has been used up",
    text: "The files were downloaded as many times as the sender allowed. Ask the sender to allow more.",
  },
  unknown_link: {
    title: "This link does not work",
    text: "Check that you copied the whole address from the message you received.",
  },
};

/** The page a share's recipient opens at `/s/{token}`. */
export function RecipientPage() {
  const api = useMemo(() => new LinkApi(tokenFromPath()), []);
  const [load, setLoad] = useState<Load>({ state: "loading" });

  const refresh = useCallback(async () => {
    try {
      let share = await api.open();
      if (share.passwordRequired && api.access) {
        // A stored access token that no longer opens the share (expired): ask again.
        api.forget();
        share = await api.open();
      }
      setLoad({ state: "open", share });
    } catch (err) {
      const e = err as ApiError;
      setLoad({
        state: "closed",
        reason:
          e instanceof ApiError ? (e.reason ?? (e.status === 404 ? "unknown_link" : null)) : null,
        message: e.message,
      });
    }
  }, [api]);

  useEffect(() => {
    void refresh();
  }, [refresh]);

  useEffect(() => {
    if (load.state === "open") document.title = `${load.share.title} · ${load.share.workspaceName}`;
  }, [load]);

  return (
    <main className="page">
      {load.state === "loading" && <p aria-live="polite">Opening the link…</p>}
      {load.state === "closed" && <Closed reason={load.reason} message={load.message} />}
      {load.state === "open" && (
        <>
          <header className="head">
            <p className="from">{load.share.workspaceName} shared with you</p>
            <h1>{load.share.title}</h1>
            {load.share.message && <p className="message">{load.share.message}</p>}
            <p className="meta">
              {load.share.fileCount} {load.share.fileCount === 1 ? "file" : "files"} · available
              until {formatDateTime(load.share.expiresAt)}
            </p>
          </header>
          {load.share.passwordRequired ? (
            <PasswordGate
              idPrefix="share"
              heading="This share is protected"
              intro="Enter the password the sender gave you."
              api={api}
              onUnlocked={refresh}
            />
          ) : (
            <>
              <SharedFileList api={api} files={load.share.files ?? []} onClosed={refresh} />
              <Comments api={api} personal={load.share.personal} />
            </>
          )}
        </>
      )}
    </main>
  );
}

function Closed({ reason, message }: { reason: string | null; message: string }) {
  const text = (reason && closedText[reason]) || {
    title: "This link cannot be opened now",
    text: message,
  };
  return (
    <section className="closed" aria-labelledby="closed-title">
      <h1 id="closed-title">{text.title}</h1>
      <p>{text.text}</p>
    </section>
  );
}
