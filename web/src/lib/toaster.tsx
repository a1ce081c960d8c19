// The app's one toast stack, configured as docs/product.md#constants-and-limits says: three visible, 4000 ms each,
// 356 px wide with a 14 px gap, bottom-right, focused with Alt+T. Sonner's own constants give the rest (a 200 ms
// removal animation, a 45 px swipe threshold). Labels follow the current language, colours the theme. Loaded with
// the first toast (toast.ts, toast-slot.tsx).
import { type CSSProperties, useEffect } from 'react';
import { Toaster, type ToasterProps } from 'sonner';
import { m, useLocale } from './i18n';
import { useTheme } from './theme';

const TOASTER_OPTIONS = {
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

/** The stack; `onMounted` runs once it listens for toasts (its own effect runs first). */
export function ToastStack({ onMounted }: { onMounted?: () => void }) {
  useEffect(() => onMounted?.(), [onMounted]);
  useLocale();
  const { theme } = useTheme();
  return (
    <Toaster
      {...TOASTER_OPTIONS}
      theme={theme}
      hotkey={[...TOASTER_OPTIONS.hotkey]}
      containerAriaLabel={m.toasts_label()}
      toastOptions={{ closeButtonAriaLabel: m.toasts_close() }}
    />
  );
}
