// The toast stack's label names its hotkey (Alt+T) in the user's language. How the stack behaves (three
// visible, 4000 ms each, 356 px wide with a 14 px gap, bottom-right, focused with Alt+T) is checked in a real
// browser: end-to-end/browser/web-conventions.test.ts, "the toasts".
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '../../src/lib/i18n.ts';
import { ToastStack } from '../../src/lib/toaster.tsx';

afterEach(() => setLocale('en'));

describe('the toast stack', () => {
  it('is labelled with its hotkey, Alt+T, in the current language', () => {
    expect(renderToStaticMarkup(createElement(ToastStack))).toContain('aria-label="Notifications alt+T"');
    setLocale('pt-BR');
    expect(renderToStaticMarkup(createElement(ToastStack))).toContain('aria-label="Notificações alt+T"');
  });
});
