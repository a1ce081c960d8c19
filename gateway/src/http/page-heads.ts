// The <head> of each HTML answer, filled in on the server so crawlers and link previews read a page's own
// title, description, canonical link and Open Graph tags without running the app. The public pages and
// their texts come from the web build (dist/page-heads.json, written from web/src/lib/page-heads.ts);
// every other path (the protected app, the auth views, unknown paths) is marked noindex. The browser's
// public configuration travels in the same page, as a JSON data block the app reads at start.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PageHead {
  path: string;
  title: string;
  description: string;
}

/** What the browser may know of the configuration (its public settings). */
export interface PublicConfig {
  supportEmail?: string | undefined;
  analyticsId?: string | undefined;
  /** Google sign-in's client id, for its One Tap prompt on the sign-in views. */
  googleClientId?: string | undefined;
}

/** The marked block of index.html the gateway replaces; outside it, index.html stays as Vite built it. */
const HEAD_BLOCK = /<!--page-head-->[\s\S]*?<!--\/page-head-->/;

const escapeHtml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** JSON inside a script element: `<` never appears raw, so no `</script>` can end it early. */
const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll('<', '\\u003c');

export function readPageHeads(distDir: string): PageHead[] {
  const file = join(distDir, 'page-heads.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as PageHead[]) : [];
}

export interface HtmlPages {
  /** The page for `path`, and whether search engines may index it. */
  render(path: string): { html: string; indexable: boolean };
  /** Absolute URLs of the indexable pages, for sitemap.xml. */
  indexableUrls(): string[];
}

export function htmlPages(template: string, heads: PageHead[], publicBaseUrl: string, config: PublicConfig): HtmlPages {
  const base = publicBaseUrl.replace(/\/$/, '');
  const byPath = new Map(heads.map((head) => [head.path, head]));
  const fallback = heads.find((head) => head.path === '/');
  const configTag = `<script id="engram-config" type="application/json">${scriptJson(config)}</script>`;

  const headFor = (path: string): { block: string; indexable: boolean } => {
    const page = byPath.get(path);
    const shown = page ?? fallback;
    const lines: string[] = [];
    if (shown) {
      lines.push(`<title>${escapeHtml(shown.title)}</title>`);
      lines.push(`<meta name="description" content="${escapeHtml(shown.description)}" />`);
    }
    if (page) {
      const url = `${base}${page.path === '/' ? '/' : page.path}`;
      lines.push(
        `<link rel="canonical" href="${escapeHtml(url)}" />`,
        '<meta property="og:type" content="website" />',
        '<meta property="og:site_name" content="Engram" />',
        `<meta property="og:title" content="${escapeHtml(page.title)}" />`,
        `<meta property="og:description" content="${escapeHtml(page.description)}" />`,
        `<meta property="og:url" content="${escapeHtml(url)}" />`,
        '<meta property="og:locale" content="en_US" />',
        '<meta property="og:locale:alternate" content="pt_BR" />',
        '<meta name="twitter:card" content="summary" />',
      );
    } else {
      lines.push('<meta name="robots" content="noindex, nofollow" />');
    }
    lines.push(configTag);
    return { block: lines.join('\n    '), indexable: Boolean(page) };
  };

  const rendered = new Map<string, { html: string; indexable: boolean }>();
  return {
    render(path) {
      const key = byPath.has(path) ? path : '*';
      let page = rendered.get(key);
      if (!page) {
        const { block, indexable } = headFor(path);
        page = { html: template.replace(HEAD_BLOCK, block), indexable };
        rendered.set(key, page);
      }
      return page;
    },
    indexableUrls: () => heads.map((head) => `${base}${head.path}`),
  };
}

export function robotsTxt(publicBaseUrl: string): string {
  const base = publicBaseUrl.replace(/\/$/, '');
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', '', `Sitemap: ${base}/sitemap.xml`, ''].join('\n');
}

export function sitemapXml(urls: string[]): string {
  const entries = urls.map((url) => `  <url><loc>${escapeHtml(url)}</loc></url>`);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}
