import { create } from "zustand";

export type ThemeChoice = "light" | "dark" | "system";
const STORAGE_KEY = "consign.theme";

interface ThemeState {
  choice: ThemeChoice;
  setChoice(choice: ThemeChoice): void;
}

function stored(): ThemeChoice {
  const v = localStorage.getItem(STORAGE_KEY);
  return v === "light" || v === "dark" ? v : "system";
}

const darkQuery = () => window.matchMedia("(prefers-color-scheme: dark)");

/**
 * Switches the theme in one frame: without pausing transitions, every control with
 * `transition-colors` would fade between themes for 150 ms, showing mixed, unreadable colours.
 */
function apply(choice: ThemeChoice) {
  const dark = choice === "dark" || (choice === "system" && darkQuery().matches);
  const root = document.documentElement;
  root.classList.add("theme-switching");
  root.classList.toggle("dark", dark);
  root.style.colorScheme = dark ? "dark" : "light";
  // Reading a computed style makes the browser apply the new colours before transitions resume.
  void getComputedStyle(root).color;
  requestAnimationFrame(() => root.classList.remove("theme-switching"));
}

export const useThemeStore = create<ThemeState>()((set) => ({
  choice: stored(),
  setChoice(choice) {
    if (choice === "system") localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
    apply(choice);
    set({ choice });
  },
}));

/** Applies the stored choice and follows the system setting while the choice is "system". */
export function initTheme() {
  apply(useThemeStore.getState().choice);
  darkQuery().addEventListener("change", () => apply(useThemeStore.getState().choice));
}
