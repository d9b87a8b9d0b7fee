import { toast } from "@/web/stores/toast-store";

/** Copies `text`, toasting `copiedTitle` when given; a refusal is toasted. Says whether it worked. */
export async function copyText(text: string, copiedTitle?: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    if (copiedTitle) toast({ title: copiedTitle });
    return true;
  } catch {
    toast({
      title: "Could not copy",
      description: "The browser refused the clipboard: select the text and copy it.",
      tone: "error",
    });
    return false;
  }
}
