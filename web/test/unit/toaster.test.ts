// Toasts follow docs/product.md#constants-and-limits: three visible, 4000 ms, 356 px wide, 14 px gap, bottom-right,
// Alt+T; labelled in the user's language.
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/lib/i18n.ts';
import { TOASTER_OPTIONS, ToastStack } from '../../src/lib/toaster.tsx';

afterEach(() => setLocale('en'));

describe('the toast stack', () => {
  it('shows three toasts at a time, each for 4000 ms, 356 px wide with a 14 px gap, bottom-right', () => {
    expect(TOASTER_OPTIONS).toMatchObject({
      visibleToasts: 3,
      duration: 4000,
      gap: 14,
      position: 'bottom-right',
      style: { '--width': '356px' },
    });
  });

  it('is reached with Alt+T, which its label announces in the current language', () => {
    expect(TOASTER_OPTIONS.hotkey).toEqual(['altKey', 'KeyT']);
    expect(renderToStaticMarkup(createElement(ToastStack))).toContain('aria-label="Notifications alt+T"');
    setLocale('pt-BR');
    expect(renderToStaticMarkup(createElement(ToastStack))).toContain('aria-label="Notificações alt+T"');
  });
});
