import { useEffect, useRef, useState } from "react";
import type { Portal } from "@/contract/portals";
import { useAsyncSubmit } from "@/web/lib/use-async-submit";
import { useCreatePortalMutation } from "../api/create-portal";
import { useUpdatePortalMutation } from "../api/update-portal";
import {
  draftFromPortal,
  emptyPortalDraft,
  type PortalDraft,
  type PortalFormField,
  portalFormFields,
} from "../state/portal-draft";
import { validatePortalDraft } from "../state/portal-form-check";
import { createPortalBody, updatePortalBody, withFormFields } from "../state/portal-requests";
import { useNamePatternCheck } from "./use-name-pattern-check";

/** The draft's members typed as text: each is one `TextField` bound with `bind`. */
export type TextMember = {
  [K in PortalFormField]: PortalDraft[K] extends string ? K : never;
}[PortalFormField];

/**
 * The portal form's state: the draft, its checks, and the request that creates the portal (no
 * `portal`) or saves the members that changed. `onSaved` gets the saved portal, or null when
 * an edit changed nothing.
 */
export function usePortalForm(portal: Portal | undefined, onSaved: (saved: Portal | null) => void) {
  const create = useCreatePortalMutation();
  const update = useUpdatePortalMutation();
  const [draft, setDraft] = useState<PortalDraft>(() =>
    portal ? draftFromPortal(portal) : emptyPortalDraft(),
  );
  const set = (change: Partial<PortalDraft>) => setDraft((d) => ({ ...d, ...change }));
  const checkPattern = useNamePatternCheck();
  const submit = useAsyncSubmit({
    fields: portalFormFields,
    validate: () => validatePortalDraft(draft, Date.now(), portal, checkPattern),
    run: async (): Promise<Portal | null> => {
      try {
        if (!portal) return await create.mutateAsync(createPortalBody(draft));
        const body = updatePortalBody(draft, portal);
        if (Object.keys(body).length === 0) return null;
        return await update.mutateAsync({ id: portal.id, body });
      } catch (error) {
        throw withFormFields(error);
      }
    },
    onSuccess: onSaved,
  });
  const { problems, pending, onSubmit } = submit;
  // A long form: the first field refused is brought into view and focused, not left below.
  const formRef = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (Object.entries(problems).some(([k, v]) => v && k !== "form"))
      formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [problems]);
  /** A text member's value, error and setter, as `TextField` takes them. */
  const bind = (member: TextMember) => ({
    value: draft[member],
    error: problems[member],
    onValueChange: (value: string) => set({ [member]: value }),
  });
  return { portal, draft, set, bind, problems, pending, onSubmit, formRef };
}

export type PortalForm = ReturnType<typeof usePortalForm>;
