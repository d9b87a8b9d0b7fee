import { type StateUpdater, useCallback, useEffect, useState } from "preact/hooks";
import { loadUploader } from "./load-uploader";
import type { PortalApi } from "./portal-api";
import {
  clearConfirmation,
  loadConfirmation,
  type StoredConfirmation,
  type StoredUpload,
  saveConfirmation,
} from "./session";
import type { Draft } from "./upload-form";
import type { UploadView } from "./upload-view";
import type { PortalUploadRun } from "./uploader";

/**
 * The upload under way (`run` and its `view`), the confirmation of the last one (`done`, kept for
 * a reload), and what the page says about them (`problem`, `notice`). `begin` starts or resumes
 * an upload once the sending engine has loaded.
 */
export function useUploadRun(api: PortalApi, setDraft: (update: StateUpdater<Draft>) => void) {
  const [run, setRun] = useState<PortalUploadRun | null>(null);
  const [view, setView] = useState<UploadView | null>(null);
  const [done, setDone] = useState<StoredConfirmation | null>(() => loadConfirmation(api.slug));
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState("");

  const onView = useCallback(
    (v: UploadView) => {
      if (v.phase === "completed" && !v.confirmation) {
        setRun(null);
        setView(null);
        setNotice(
          "These files were handed in already; the answer with the confirmation was lost on the way. If you gave your email address, the confirmation is in your mail.",
        );
        return;
      }
      if (!v.confirmation) return setView(v);
      const kept = { confirmation: v.confirmation, localHashes: v.localHashes };
      saveConfirmation(api.slug, kept);
      setDone(kept);
      setRun(null);
      setView(null);
      setDraft((d) => ({ ...d, picked: [] }));
    },
    [api, setDraft],
  );

  const begin = useCallback(
    async (stored: StoredUpload, files: (File | null)[]) => {
      setProblem(null);
      setNotice("");
      try {
        const { PortalUploadRun } = await loadUploader();
        const started = new PortalUploadRun(api, stored, files, onView);
        setRun(started);
        started.start();
      } catch {
        setProblem(
          "The page could not load what it needs to send files. Check the connection and reload: the upload goes on where it stopped.",
        );
      }
    },
    [api, onView],
  );

  /** The upload was cancelled: the page goes back to the form. */
  const stop = () => {
    setRun(null);
    setView(null);
  };

  /** The confirmation is put away: the page shows the form again. */
  const sendMore = () => {
    clearConfirmation(api.slug);
    setDone(null);
  };

  return { run, view, done, problem, notice, setNotice, begin, stop, sendMore };
}

/** While `moving`, leaving the page asks first: it stops the upload until files are picked again. */
export function useLeaveWarning(moving: boolean | undefined) {
  useEffect(() => {
    if (!moving) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [moving]);
}
