import { create } from 'zustand';

export type ToastVariant = 'default' | 'success' | 'destructive';

export interface Toast {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
}

interface ToastState {
  current: Toast | null;
  show: (toast: Omit<Toast, 'id' | 'variant'> & { variant?: ToastVariant; durationMs?: number }) => void;
  dismiss: () => void;
}

export const TOAST_DURATION_MS = 5000;
let nextId = 1;
let timer: ReturnType<typeof setTimeout> | undefined;

/** At most one toast at a time (spec): a new one replaces the current one. Shown for 5 s. */
export const useToast = create<ToastState>((set) => ({
  current: null,
  show: ({ durationMs = TOAST_DURATION_MS, variant = 'default', ...toast }) => {
    clearTimeout(timer);
    const id = nextId++;
    set({ current: { id, variant, ...toast } });
    timer = setTimeout(() => set((s) => (s.current?.id === id ? { current: null } : s)), durationMs);
  },
  dismiss: () => {
    clearTimeout(timer);
    set({ current: null });
  },
}));

export const toast = (t: Parameters<ToastState['show']>[0]) => useToast.getState().show(t);
