// The app's toasts. sonner (and its stack, lib/toaster.tsx) loads with the first toast rather than with
// the app: most first visits never show one, and the code would count against every page's JavaScript
// budget. A toast raised meanwhile waits until the stack is mounted, so none is lost.

import { useSyncExternalStore } from 'react';
import type { ExternalToast, toast as sonnerToast } from 'sonner';

type Sonner = typeof sonnerToast;

const listeners = new Set<() => void>();
let wanted = false;
let markMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  markMounted = resolve;
});

/** Called by the stack once it listens for toasts. */
export const toasterMounted = (): void => markMounted();

function show(run: (toast: Sonner) => void): void {
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
  void Promise.all([import('sonner'), mounted]).then(([sonner]) => run(sonner.toast));
}

export const toast = {
  message: (message: string, data?: ExternalToast) => show((t) => t(message, data)),
  success: (message: string, data?: ExternalToast) => show((t) => t.success(message, data)),
  error: (message: string, data?: ExternalToast) => show((t) => t.error(message, data)),
  info: (message: string, data?: ExternalToast) => show((t) => t.info(message, data)),
  warning: (message: string, data?: ExternalToast) => show((t) => t.warning(message, data)),
};

/** Whether a toast has been raised yet, i.e. whether the stack must be on the page. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => wanted,
    () => false,
  );
}
