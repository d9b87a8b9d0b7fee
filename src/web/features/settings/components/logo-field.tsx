import { ImageIcon } from "lucide-react";
import { useId, useRef } from "react";
import { formatBytes } from "@/browser/format";
import type { WorkspaceSettings } from "@/contract/settings";
import { LOGO_UPLOAD_MAX_BYTES } from "@/contract/settings-rules";
import { Button } from "@/web/components/ui/button";
import { Skeleton } from "@/web/components/ui/skeleton";
import { describeError } from "@/web/lib/api-client";
import { toast } from "@/web/stores/toast-store";
import { useDeleteLogoMutation } from "../api/delete-logo";
import { useLogoUrl } from "../api/get-logo";
import { usePutLogoMutation } from "../api/put-logo";

const ACCEPTED = ["image/png", "image/jpeg"];

/** The logo: a preview, Choose (PNG or JPEG, checked here before it is sent), Remove. */
export function LogoField({
  workspaceId,
  settings,
}: {
  workspaceId: string;
  settings: WorkspaceSettings;
}) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const logo = useLogoUrl(workspaceId, settings.logo?.updatedAt ?? null);
  const put = usePutLogoMutation();
  const remove = useDeleteLogoMutation();
  const failed = (title: string) => (err: unknown) =>
    toast({ title, description: describeError(err), tone: "error" });

  const choose = (file: File | undefined) => {
    if (input.current) input.current.value = "";
    if (!file) return;
    if (!ACCEPTED.includes(file.type))
      return toast({ title: `${file.name} is not a PNG or JPEG image`, tone: "error" });
    if (file.size > LOGO_UPLOAD_MAX_BYTES)
      return toast({
        title: `${file.name} is ${formatBytes(file.size)}`,
        description: `A logo may be at most ${formatBytes(LOGO_UPLOAD_MAX_BYTES)}.`,
        tone: "error",
      });
    put.mutate(file, {
      onSuccess: () => toast({ title: "Logo saved" }),
      onError: failed("Could not save the logo"),
    });
  };

  return (
    <section className="grid gap-3" aria-labelledby="settings-logo">
      <h2 id="settings-logo" className="font-medium">
        Logo
      </h2>
      <div className="flex flex-wrap items-center gap-4">
        <div className="flex h-20 w-60 max-w-full items-center justify-center rounded-md border border-border bg-white p-2">
          {settings.logo === null ? (
            <span className="flex items-center gap-2 text-sm text-neutral-600">
              <ImageIcon aria-hidden="true" className="size-5" /> No logo: documents show the name
            </span>
          ) : logo.url ? (
            <img
              src={logo.url}
              alt="The workspace's logo"
              className="max-h-full max-w-full object-contain"
            />
          ) : logo.error ? (
            <span className="text-sm text-neutral-600">The logo could not be shown</span>
          ) : (
            <Skeleton className="h-full w-full" />
          )}
        </div>
        <div className="flex flex-wrap gap-2">
          <input
            ref={input}
            type="file"
            accept={ACCEPTED.join(",")}
            className="sr-only"
            tabIndex={-1}
            aria-hidden="true"
            onChange={(e) => choose(e.target.files?.[0])}
          />
          <Button
            variant="outline"
            aria-describedby={hintId}
            disabled={put.isPending}
            onClick={() => input.current?.click()}
          >
            {put.isPending ? "Uploading…" : settings.logo ? "Replace logo…" : "Choose logo…"}
          </Button>
          {settings.logo && (
            <Button
              variant="outline"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(undefined, {
                  onSuccess: () => toast({ title: "Logo removed" }),
                  onError: failed("Could not remove the logo"),
                })
              }
            >
              {remove.isPending ? "Removing…" : "Remove logo"}
            </Button>
          )}
        </div>
      </div>
      <p id={hintId} className="text-sm text-muted-foreground">
        PNG or JPEG, at most {formatBytes(LOGO_UPLOAD_MAX_BYTES)}; stored at up to 600 × 200 pixels
        and printed beside the name on every page of a receipt.
      </p>
    </section>
  );
}
