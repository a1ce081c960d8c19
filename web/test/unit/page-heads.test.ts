// The public pages' titles and descriptions, which the build writes for the gateway's <head>, exist in both
// languages and say something of their own.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { PUBLIC_PAGES } from '../../src/lib/page-heads.ts';

const messages = (locale: string) =>
  JSON.parse(readFileSync(new URL(`../../messages/${locale}.json`, import.meta.url), 'utf8')) as Record<string, string>;

describe('the public pages', () => {
  it('are the landing page, help, terms and privacy', () => {
    expect(PUBLIC_PAGES.map((page) => page.path)).toEqual(['/', '/help', '/terms', '/privacy']);
  });

  it('each have a title and a description of their own in English and Portuguese', () => {
    for (const locale of ['en', 'pt-BR']) {
      const texts = messages(locale);
      const titles = PUBLIC_PAGES.map((page) => texts[page.title]);
      const descriptions = PUBLIC_PAGES.map((page) => texts[page.description]);
      for (const text of [...titles, ...descriptions]) expect(text, locale).toMatch(/\S/);
      expect(new Set(titles).size).toBe(PUBLIC_PAGES.length);
      expect(new Set(descriptions).size).toBe(PUBLIC_PAGES.length);
    }
  });
});
