// How a page lays out on a screen, read in the browser for the layout tests: what sticks out past the screen's
// right edge, whether an element lies wholly on the screen, and header controls that overlap. (Expressions,
// not functions: these tests compile without DOM types.)
import type { Locator, Page } from 'playwright-core';

/**
 * How far the page is wider than its screen, and the elements that stick out past its right edge (for the
 * failure message); an empty list when nothing does.
 */
export const sticksOut = (page: Page) =>
  page.evaluate<string[]>(`(() => {
    // A phone widens its layout viewport (innerWidth) to fit a page wider than the screen: compare with the screen.
    const width = Math.min(window.innerWidth, ${page.viewportSize()?.width ?? 0});
    if (document.documentElement.scrollWidth <= width) return [];
    const out = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > width + 0.5)
      .map((element) => {
        const box = element.getBoundingClientRect();
        const classes = typeof element.className === 'string' ? element.className.slice(0, 60) : '';
        return element.tagName.toLowerCase() + '.' + classes + ' right=' + Math.round(box.right);
      });
    return ['scrollWidth ' + document.documentElement.scrollWidth + ' > ' + width, ...out.slice(-8)];
  })()`);

/** The box of `locator` lies wholly on the screen, left to right. */
export async function onScreen(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.width > 0 && box.x >= 0 && box.x + box.width <= width + 0.5;
}

/**
 * The header's visible controls, and what they show (an avatar, a name), that overlap another one (as "a ∩ b");
 * none when it lays out cleanly. What a control shows counts too: a link squeezed narrower than its avatar keeps a
 * box that overlaps nothing while the avatar is drawn under the next button.
 */
export const overlapsInHeader = (page: Page) =>
  page.evaluate<string[]>(`(() => {
    const controls = [...document.querySelectorAll('header a, header button, header select, header a > *, header button > *')]
      .map((element) => ({ element, name: (element.textContent || element.getAttribute('aria-label') || element.tagName).trim().slice(0, 20), box: element.getBoundingClientRect() }))
      // (More than a pixel: a screen reader's text is a 1-pixel box.)
      .filter(({ box }) => box.width > 1 && box.height > 1);
    const overlaps = [];
    for (const [i, a] of controls.entries())
      for (const b of controls.slice(i + 1))
        if (!a.element.contains(b.element) && !b.element.contains(a.element) && a.box.left < b.box.right - 0.5 && b.box.left < a.box.right - 0.5 && a.box.top < b.box.bottom - 0.5 && b.box.top < a.box.bottom - 0.5)
          overlaps.push(a.name + ' ∩ ' + b.name);
    return overlaps;
  })()`);

/** Focus is on a disclosure button that is closed (aria-expanded false), as after Escape closes a menu. */
export const focusIsOnClosedMenuButton = (page: Page) =>
  page.evaluate<boolean>(`document.activeElement?.getAttribute('aria-expanded') === 'false'`);
