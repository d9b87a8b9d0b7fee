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

function apply(choice: ThemeChoice) {
  const dark = choice === "dark" || (choice === "system" && darkQuery().matches);
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.style.colorScheme = dark ? "dark" : "light";
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
