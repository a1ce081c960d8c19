// Whether to speak of keys: only on a device with a fine pointer that can hover (a mouse or trackpad, so most
// likely a keyboard too). On a phone or tablet the practice screen speaks of tapping instead.
import { useSyncExternalStore } from 'react';

const KEYBOARD_DEVICE = '(hover: hover) and (pointer: fine)';

const query = () => (typeof matchMedia === 'undefined' ? undefined : matchMedia(KEYBOARD_DEVICE));

function subscribe(onChange: () => void) {
  const list = query();
  list?.addEventListener('change', onChange);
  return () => list?.removeEventListener('change', onChange);
}

export function useKeyboardHints(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => query()?.matches ?? false,
    () => false,
  );
}
