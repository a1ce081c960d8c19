// The two screens the browser tests look through: a phone (390×844, touch) and a laptop (1280×800).
import type { BrowserContextOptions } from 'playwright-core';

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 1,
};

export const LAPTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
