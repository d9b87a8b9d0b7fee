import { CheckIcon, CopyIcon } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../stores/toast-store";

/** Copies `text`; the label says what is copied, for screen readers and tooltips alike. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1_500);
    } catch {
      toast({
        title: "Could not copy",
        description: "Select the text and copy it.",
        tone: "error",
      });
    }
  };
  return (
    <Button variant="outline" size="sm" onClick={copy} aria-label={label}>
      {copied ? <CheckIcon aria-hidden="true" /> : <CopyIcon aria-hidden="true" />}
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}
