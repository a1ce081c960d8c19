// The app's one toast stack, configured as spec §9 says: three visible, 4000 ms each, 356 px wide with a
// 14 px gap, bottom-right, focused with Alt+T. Sonner's own constants give the rest of §9 (a 200 ms removal
// animation, a 45 px swipe threshold). Labels follow the current language.
import type { CSSProperties } from 'react';
import { Toaster, type ToasterProps } from 'sonner';
import { m, useLocale } from './i18n';

export const TOASTER_OPTIONS = {
  position: 'bottom-right',
  visibleToasts: 3,
  duration: 4000,
  gap: 14,
  // KeyboardEvent properties: event.altKey and event.code === 'KeyT'.
  hotkey: ['altKey', 'KeyT'],
  style: { '--width': '356px' } as CSSProperties,
  richColors: true,
  closeButton: true,
} as const satisfies ToasterProps;

export function AppToaster() {
  useLocale();
  return (
    <Toaster
      {...TOASTER_OPTIONS}
      hotkey={[...TOASTER_OPTIONS.hotkey]}
      containerAriaLabel={m.toasts_label()}
      toastOptions={{ closeButtonAriaLabel: m.toasts_close() }}
    />
  );
}
