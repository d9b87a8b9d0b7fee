import { create } from "zustand";

export interface Toast {
  id: number;
  title: string;
  description?: string;
  tone?: "default" | "error";
  action?: { label: string; onClick: () => void };
}

interface ToastState {
  toasts: Toast[];
  push(toast: Omit<Toast, "id">): number;
  dismiss(id: number): void;
}

let nextId = 1;

export const useToastStore = create<ToastState>()((set) => ({
  toasts: [],
  push(toast) {
    const id = nextId++;
    set((s) => ({ toasts: [...s.toasts.slice(-4), { ...toast, id }] }));
    return id;
  },
  dismiss(id) {
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

export const toast = (t: Omit<Toast, "id">) => useToastStore.getState().push(t);
