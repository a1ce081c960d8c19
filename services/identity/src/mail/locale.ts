// The language of a mail: the first of the request's Accept-Language that Engram speaks (any Portuguese
// reads Brazilian Portuguese), English otherwise.
export const LOCALES = ['en', 'pt-BR'] as const;
export type Locale = (typeof LOCALES)[number];

/** Accept-Language ranges by preference: quality first, then the order given. */
function preferred(header: string): string[] {
  return header
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
      return { range: range.trim().toLowerCase(), quality: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.range !== '' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.range);
}

export function localeOf(acceptLanguage: string | null | undefined): Locale {
  for (const range of preferred(acceptLanguage ?? '')) {
    if (range === 'en' || range.startsWith('en-')) return 'en';
    if (range === 'pt' || range.startsWith('pt-')) return 'pt-BR';
  }
  return 'en';
}
