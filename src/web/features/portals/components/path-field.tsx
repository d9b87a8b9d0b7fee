import { TextField } from "@/web/components/ui/text-field";

/**
 * A folder of the workspace, typed as its path and checked with the contract's path rule. Not
 * Files' folder picker: sharing it moved modules of the Files page into chunks of their own,
 * +2.7 KB gzip on Files' first load.
 */
export function PathField(props: {
  label: string;
  hint?: string;
  placeholder: string;
  value: string;
  error?: string;
  onValueChange(path: string): void;
}) {
  return <TextField {...props} autoComplete="off" spellCheck={false} />;
}
