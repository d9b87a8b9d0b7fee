import { LayoutGridIcon, ListIcon } from "lucide-react";
import { type FilesLayout, useFilesViewStore } from "@/web/features/files/state/view-store";
import { cn } from "@/web/lib/cn";

const options: { value: FilesLayout; label: string; icon: typeof ListIcon }[] = [
  { value: "list", label: "List view", icon: ListIcon },
  { value: "grid", label: "Grid view", icon: LayoutGridIcon },
];

export function ViewToggle() {
  const layout = useFilesViewStore((s) => s.layout);
  const setLayout = useFilesViewStore((s) => s.setLayout);
  return (
    <fieldset className="flex rounded-md border border-border p-0.5">
      <legend className="sr-only">Layout</legend>
      {options.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          aria-label={label}
          title={label}
          aria-pressed={layout === value}
          onClick={() => setLayout(value)}
          className={cn(
            "inline-flex size-7 items-center justify-center rounded focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
            layout === value
              ? "bg-accent text-foreground"
              : "text-muted-foreground hover:bg-accent",
          )}
        >
          <Icon className="size-4" aria-hidden="true" />
        </button>
      ))}
    </fieldset>
  );
}
