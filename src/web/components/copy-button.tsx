import { CheckIcon, CopyIcon } from "lucide-react";
import { useState } from "react";
import { copyText } from "@/web/lib/clipboard";
import { Button } from "./ui/button";

/**
 * Copies `text`; the label says what is copied, for screen readers and tooltips alike. The
 * button's text stays "Copy" (its name must keep holding its visible text); a check mark shows
 * it worked, and a status says so to screen readers.
 */
export function CopyButton({
  text,
  label,
  onCopied,
}: {
  text: string;
  label: string;
  onCopied?(): void;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!(await copyText(text))) return;
    onCopied?.();
    setCopied(true);
    setTimeout(() => setCopied(false), 1_500);
  };
  return (
    <>
      <Button variant="outline" size="sm" onClick={copy} aria-label={label}>
        {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
        Copy
      </Button>
      <span role="status" className="sr-only">
        {copied ? "Copied" : ""}
      </span>
    </>
  );
}
