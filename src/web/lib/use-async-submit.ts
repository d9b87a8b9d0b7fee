import { type FormEvent, useCallback, useRef, useState } from "react";
import { ApiError } from "@/browser/api-error";
import { describeError } from "@/web/lib/api-client";

/** Messages by field name; `form` is for what no single field owns. */
export type Problems<F extends string> = Partial<Record<F | "form", string>>;

/**
 * One way to submit a form: check it locally, run the request once (a second submit while one
 * is pending is ignored), and turn a refusal into messages on the fields the service named
 * (its `details.issues[].field`, matched by the first segment), or a form-level message.
 */
export function useAsyncSubmit<F extends string, T>(options: {
  /** The fields the form shows; an issue on any other field becomes the form-level message. */
  fields: readonly F[];
  validate?: () => Problems<F>;
  run: () => Promise<T>;
  onSuccess?: (result: T) => void;
}) {
  const [problems, setProblems] = useState<Problems<F>>({});
  const [pending, setPending] = useState(false);
  const latest = useRef(options);
  latest.current = options;
  const inFlight = useRef(false);

  const onSubmit = useCallback(async (e?: FormEvent) => {
    e?.preventDefault();
    if (inFlight.current) return;
    const { fields, validate, run, onSuccess } = latest.current;
    const found = validate?.() ?? {};
    setProblems(found);
    if (Object.values(found).some(Boolean)) return;
    inFlight.current = true;
    setPending(true);
    try {
      const result = await run();
      onSuccess?.(result);
    } catch (error) {
      setProblems(problemsFrom(error, fields));
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  }, []);

  return { onSubmit, pending, problems, setProblems };
}

export function problemsFrom<F extends string>(error: unknown, fields: readonly F[]): Problems<F> {
  const found: Problems<F> = {};
  const shown = new Set<string>(fields);
  if (error instanceof ApiError) {
    for (const issue of error.fieldIssues) {
      const field = issue.field.split(".")[0] as F;
      if (shown.has(field)) found[field] ??= issue.message;
    }
  }
  if (!Object.values(found).some(Boolean)) found.form = describeError(error);
  return found;
}
