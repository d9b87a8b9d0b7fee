/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";
import { useEffect, useMemo, useState } from "preact/hooks";
import { formatDateTime } from "@/browser/format";
import type { PublicPortal } from "@/contract/portal-public";
import { PORTAL_LINK_PREFIX } from "@/contract/portal-rules";
import { PasswordGate } from "@/public/common/password-gate";
import { usePublicLoad } from "@/public/common/use-public-load";
import { Confirmation } from "./confirmation";
import { PortalApi } from "./portal-api";
import { emptySender } from "./portal-model";
import { useLeaveWarning, useUploadRun } from "./sender-hooks";
import { loadUpload, runningElsewhere } from "./session";
import { type Draft, UploadForm } from "./upload-form";
import { UploadProgress } from "./upload-progress";

const slugFromPath = () =>
  decodeURIComponent(location.pathname.slice(PORTAL_LINK_PREFIX.length).replace(/\/+$/, ""));

function closedText(reason: string | null, portal: PublicPortal | null, message: string) {
  const who = portal?.workspaceName ?? "The recipient";
  switch (reason) {
    case "paused":
      return {
        title: "This portal is not taking uploads right now",
        text: `${who} has paused it for now. Try again later, or ask them when it will open again.`,
      };
    case "expired":
      return {
        title: "This portal has closed",
        text: `It stopped taking uploads${portal?.expiresAt ? ` on ${formatDateTime(portal.expiresAt)}` : ""}. Ask ${portal?.workspaceName ?? "the recipient"} for a new link if you still need to send files.`,
      };
    case "revoked":
      return {
        title: "This portal was withdrawn",
        text: `${who} no longer takes uploads here. Ask them where to send your files.`,
      };
    case "unknown_portal":
      return {
        title: "This link does not work",
        text: "Check that you copied the whole address from the message you received.",
      };
    default:
      return { title: "This portal cannot be opened now", text: message };
  }
}

function Closed({
  reason,
  portal,
  message,
  onRetry,
}: {
  reason: string | null;
  portal: PublicPortal | null;
  message: string;
  onRetry: (() => void) | null;
}) {
  const text = closedText(reason, portal, message);
  return (
    <section className="closed" aria-labelledby="closed-title">
      {portal && (
        <p className="from">
          {portal.title} · {portal.workspaceName}
        </p>
      )}
      <h1 id="closed-title">{text.title}</h1>
      <p>{text.text}</p>
      {onRetry && (
        <div className="actions">
          <button type="button" onClick={onRetry}>
            Try again
          </button>
        </div>
      )}
    </section>
  );
}

function Header({ portal }: { portal: PublicPortal }) {
  const when = [
    portal.dueAt && `due ${formatDateTime(portal.dueAt)}`,
    portal.expiresAt && `open until ${formatDateTime(portal.expiresAt)}`,
  ]
    .filter(Boolean)
    .join(" · ");
  return (
    <header className="head">
      <p className="from">{portal.workspaceName} asks you to send files</p>
      <h1>{portal.title}</h1>
      {portal.message && <p className="message">{portal.message}</p>}
      {when && <p className="meta when">{when.charAt(0).toUpperCase() + when.slice(1)}</p>}
    </header>
  );
}

/** The page a sender opens at `/p/{slug}`. */
export function SenderPage() {
  const api = useMemo(() => new PortalApi(slugFromPath()), []);
  const { load, refresh } = usePublicLoad(api, "unknown_portal");
  const [draft, setDraft] = useState<Draft>({ values: emptySender(), picked: [] });
  const { run, view, done, problem, notice, setNotice, begin, stop, sendMore } = useUploadRun(
    api,
    setDraft,
  );

  useEffect(() => {
    void refresh();
    // An upload an earlier visit left unfinished goes on once its files are picked again,
    // unless another tab of this browser is running it: two would push the same files.
    const stored = loadUpload(api.slug);
    if (stored)
      void runningElsewhere(stored.uploadId).then((elsewhere) =>
        elsewhere
          ? setNotice(
              "An upload through this portal is running in another tab of this browser: it goes on there.",
            )
          : begin(stored, []),
      );
  }, [refresh, api, begin, setNotice]);

  // Leaving stops the upload (it resumes once the files are picked again): say so first.
  useLeaveWarning(view?.files.some((f) => f.status === "uploading" || f.status === "hashing"));

  if (load.state === "loading")
    return (
      <main className="page">
        <p aria-live="polite">Opening the portal…</p>
      </main>
    );
  if (load.state === "failed")
    return (
      <main className="page">
        <Closed
          reason={load.reason}
          portal={null}
          message={load.message}
          onRetry={load.reason === "unknown_portal" ? null : refresh}
        />
      </main>
    );
  const portal = load.value;
  // An upload already under way is shown whatever the portal says now: the service decides
  // whether it may finish, and says so.
  if (portal.state !== "open" && !run && !done)
    return (
      <main className="page">
        <Closed reason={portal.state} portal={portal} message="" onRetry={null} />
      </main>
    );

  let body: ComponentChildren;
  if (run && view)
    body = (
      <UploadProgress
        run={run}
        view={view}
        workspaceName={portal.workspaceName}
        onCancelled={(text) => {
          stop();
          setNotice(
            draft.picked.length > 0
              ? `${text} Your files are still chosen below, to send again when you want.`
              : text,
          );
        }}
      />
    );
  else if (done)
    body = (
      <Confirmation
        confirmation={done.confirmation}
        localHashes={done.localHashes}
        onSendMore={() => {
          sendMore();
          void refresh();
        }}
      />
    );
  else if (portal.passwordRequired)
    body = (
      <PasswordGate
        idPrefix="portal"
        heading="This portal is protected"
        intro="Enter the password you were given with the link."
        api={api}
        onUnlocked={refresh}
      />
    );
  else
    body = (
      <UploadForm
        api={api}
        portal={portal}
        draft={draft}
        onDraft={setDraft}
        onStarted={begin}
        onRefused={refresh}
      />
    );

  return (
    <main className="page">
      <Header portal={portal} />
      {problem && (
        <p className="error" role="alert">
          {problem}
        </p>
      )}
      <div role="status" className={notice ? "notice" : undefined}>
        {notice}
      </div>
      {body}
    </main>
  );
}
