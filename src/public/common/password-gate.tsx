/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { ApiError } from "@/browser/api-error";
import type { PublicApi } from "./public-api";

/**
 * Asks for a share's or a portal's password; after repeated wrong ones the service makes each try
 * wait. `idPrefix` names the form's elements (`{idPrefix}-password` …), one gate a page.
 */
export function PasswordGate({
  idPrefix,
  heading,
  intro,
  api,
  onUnlocked,
}: {
  idPrefix: string;
  heading: string;
  intro: string;
  /** The page's API (LinkApi, PortalApi): `unlock` keeps the access token it answers. */
  api: Pick<PublicApi, "unlock">;
  onUnlocked: () => void;
}) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(Date.now());
  const [busy, setBusy] = useState(false);
  const waitSeconds = Math.max(0, Math.ceil((waitUntil - now) / 1000));
  const titleId = `${idPrefix}-gate-title`;
  const inputId = `${idPrefix}-password`;
  const errorId = `${idPrefix}-password-error`;

  useEffect(() => {
    if (waitUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [waitUntil]);

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    if (!password || waitSeconds > 0) return;
    setBusy(true);
    setError(null);
    try {
      await api.unlock(password);
      onUnlocked();
    } catch (err) {
      if (!(err instanceof ApiError)) {
        setError(`The password could not be checked: ${(err as Error).message}`);
      } else if (err.code === "rate_limited") {
        const seconds = Number(err.details?.retryAfterSeconds ?? 1);
        setWaitUntil(Date.now() + seconds * 1000);
        setNow(Date.now());
        setError("Too many wrong passwords. Wait before trying again.");
      } else if (err.reason === "wrong_password") {
        setError("That password is not right. Check it and try again.");
      } else {
        setError(err.message);
      }
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="card gate" onSubmit={submit} noValidate aria-labelledby={titleId}>
      <h2 id={titleId}>{heading}</h2>
      <p>{intro}</p>
      <label htmlFor={inputId}>Password</label>
      <input
        id={inputId}
        type="password"
        autoComplete="current-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        required
      />
      <div aria-live="polite">
        {error && (
          <p id={errorId} className="error">
            {error}
            {waitSeconds > 0 && ` You can try again in ${waitSeconds} s.`}
          </p>
        )}
      </div>
      <button type="submit" className="primary" disabled={busy || waitSeconds > 0 || !password}>
        {busy ? "Checking…" : "Open"}
      </button>
    </form>
  );
}
