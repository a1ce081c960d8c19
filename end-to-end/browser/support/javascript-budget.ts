// How much JavaScript a first visit downloads: every script of the app the browser fetched, measured as
// its built file gzipped at level 9 (what a server compressing its assets would send).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';

const WEB_DIST = new URL('../../../web/dist/', import.meta.url);

/** Starts recording the app's scripts the page fetches; the result lists each with its gzipped KB. */
export function recordScripts(page: Page, origin: string): Map<string, number> {
  const scripts = new Map<string, number>();
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin !== origin || !url.pathname.endsWith('.js')) return;
    const file = new URL(`.${url.pathname}`, WEB_DIST);
    scripts.set(url.pathname, gzipSync(readFileSync(file), { level: 9 }).length / 1024);
  });
  return scripts;
}

export const totalKb = (scripts: Map<string, number>): number =>
  Math.round([...scripts.values()].reduce((sum, kb) => sum + kb, 0) * 10) / 10;
