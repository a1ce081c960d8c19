// WCAG 2 A and AA, as axe-core checks a page in the browser (the page's context needs bypassCSP: the
// checker is a script the app's Content-Security-Policy would rightly refuse).
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

type AxeResults = { violations: { id: string; nodes: { target: string[] }[] }[] };

/**
 * Waits until nothing on the page moves: the cookie banner (started after the first render) fades in, and a
 * half-transparent one fails the contrast check for a moment. (Expressions, not functions: these tests
 * compile without DOM types.)
 */
export async function settle(page: Page): Promise<void> {
  // vanilla-cookieconsent marks its start; a banner or preferences it shows then carry show--* on <html>.
  await page.waitForFunction('window._ccRun === true');
  await page.waitForFunction(`(() => {
    const shown = (modal, flag) =>
      !document.documentElement.classList.contains(flag) ||
      getComputedStyle(document.querySelector('#cc-main ' + modal) ?? document.body).opacity === '1';
    return shown('.cm', 'show--consent') && shown('.pm', 'show--preferences');
  })()`);
  await page.waitForFunction('document.getAnimations().every((animation) => animation.playState !== "running")');
}

/**
 * The violations on the page once it is still, one line each. Toasts are left out: they fade in and out, and a
 * half-transparent one fails the contrast check for a moment.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  await settle(page);
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (...args: unknown[]) => Promise<AxeResults> } }).axe;
    const context = { include: [['body']], exclude: [['[data-sonner-toaster]']] };
    const results = await axe.run(context, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`);
  });
}
