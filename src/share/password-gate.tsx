/** @jsxImportSource preact */
import { useEffect, useState } from "preact/hooks";
import { ApiError, type LinkApi } from "./api";

/** Asks for the share's password; after repeated wrong ones the service makes each try wait. */
export function PasswordGate({ api, onUnlocked }: { api: LinkApi; onUnlocked: () => void }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(Date.now());
  const [busy, setBusy] = useState(false);
  const waitSeconds = Math.max(0, Math.ceil((waitUntil - now) / 1000));

  useEffect(() => {
    if (waitUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [waitUntil]);

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await api.unlock(password);
      onUnlocked();
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      const d = err.failure.details ?? {};
      if (err.failure.code === "rate_limited") {
        const seconds = Number(d.retryAfterSeconds ?? 1);
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
    <form className="card gate" onSubmit={submit} noValidate>
      <h2>This share is protected</h2>
      <p>Enter the password the sender gave you.</p>
      <label htmlFor="share-password">Password</label>
      <input
        id="share-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onInput={(e) => setPassword(e.currentTarget.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "share-password-error" : undefined}
        required
      />
      <div aria-live="polite">
        {error && (
          <p id="share-password-error" className="error">
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
