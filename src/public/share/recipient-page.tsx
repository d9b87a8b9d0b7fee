/** @jsxImportSource preact */
import { useEffect, useMemo } from "preact/hooks";
import { formatDateTime } from "@/browser/format";
import { SHARE_LINK_PREFIX } from "@/contract/rules";
import { PasswordGate } from "@/public/common/password-gate";
import { usePublicLoad } from "@/public/common/use-public-load";
import { Comments } from "./comments";
import { LinkApi } from "./share-api";
import { SharedFileList } from "./shared-file-list";

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
  const { load, refresh } = usePublicLoad(api, "unknown_link");

  useEffect(() => {
    void refresh();
  }, [refresh]);

  return (
    <main className="page">
      {load.state === "loading" && <p aria-live="polite">Opening the link…</p>}
      {load.state === "failed" && <Closed reason={load.reason} message={load.message} />}
      {load.state === "ready" && (
        <>
          <header className="head">
            <p className="from">{load.value.workspaceName} shared with you</p>
            <h1>{load.value.title}</h1>
            {load.value.message && <p className="message">{load.value.message}</p>}
            <p className="meta">
              {load.value.fileCount} {load.value.fileCount === 1 ? "file" : "files"} · available
              until {formatDateTime(load.value.expiresAt)}
            </p>
          </header>
          {load.value.passwordRequired ? (
            <PasswordGate
              idPrefix="share"
              heading="This share is protected"
              intro="Enter the password the sender gave you."
              api={api}
              onUnlocked={refresh}
            />
          ) : (
            <>
              <SharedFileList
                api={api}
                files={load.value.files ?? []}
                zipName={load.value.title}
                onClosed={refresh}
              />
              <Comments api={api} personal={load.value.personal} />
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
