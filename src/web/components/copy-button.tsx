import { CheckIcon, CopyIcon } from "lucide-react";
import { useState } from "react";
import { copyText } from "@/web/lib/clipboard";
import { Button } from "./ui/button";

/** Copies `text`; the label says what is copied, for screen readers and tooltips alike. */
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
    <Button variant="outline" size="sm" onClick={copy} aria-label={label}>
      {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}
