import { MonitorIcon, MoonIcon, SunIcon } from "lucide-react";
import { cn } from "@/web/lib/cn";
import { type ThemeChoice, useThemeStore } from "@/web/stores/theme-store";

const choices: { value: ThemeChoice; label: string; icon: typeof SunIcon }[] = [
  { value: "light", label: "Light theme", icon: SunIcon },
  { value: "dark", label: "Dark theme", icon: MoonIcon },
  { value: "system", label: "System theme", icon: MonitorIcon },
];

/** Three pressed-state buttons rather than a menu: one click, and no popover code to load. */
export function ThemeMenu() {
  const current = useThemeStore((s) => s.choice);
  const setChoice = useThemeStore((s) => s.setChoice);
  return (
    <fieldset className="flex rounded-md border border-border p-0.5">
      <legend className="sr-only">Theme</legend>
      {choices.map(({ value, label, icon: Icon }) => (
        <button
          key={value}
          type="button"
          aria-label={label}
          aria-pressed={current === value}
          title={label}
          onClick={() => setChoice(value)}
          className={cn(
            "rounded p-1.5 text-muted-foreground hover:text-foreground focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring",
            current === value && "bg-accent text-foreground",
          )}
        >
          <Icon className="size-4" aria-hidden="true" />
        </button>
      ))}
    </fieldset>
  );
}
