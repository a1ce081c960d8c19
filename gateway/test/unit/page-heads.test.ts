// The <head> the gateway fills into index.html: each public page's own texts and links, noindex for every
// other path, and the browser's configuration as data that no value can break out of.
import { describe, expect, it } from 'vitest';
import { htmlPages, robotsTxt, sitemapXml } from '../../src/http/page-heads.ts';

const TEMPLATE = [
  '<html><head>',
  '<!--page-head-->',
  '<title>Engram</title>',
  '<!--/page-head-->',
  '<script type="module" src="/assets/index.js"></script>',
  '</head><body><div id="root"></div></body></html>',
].join('\n');

const HEADS = [
  { path: '/', title: 'Engram: remember', description: 'Flashcards & spaced "repetition"' },
  { path: '/terms', title: 'Terms · Engram', description: 'The terms' },
];

const pages = (config = {}) => htmlPages(TEMPLATE, HEADS, 'https://engram.example/', config);

describe('the head of a page', () => {
  it('holds a public page’s own title, description, canonical link and Open Graph tags, escaped', () => {
    const { html, indexable } = pages().render('/terms');
    expect(indexable).toBe(true);
    expect(html).toContain('<title>Terms · Engram</title>');
    expect(html).toContain('<link rel="canonical" href="https://engram.example/terms" />');
    expect(html).toContain('<meta property="og:url" content="https://engram.example/terms" />');
    expect(pages().render('/').html).toContain(
      '<meta name="description" content="Flashcards &amp; spaced &quot;repetition&quot;" />',
    );
    expect(html).not.toContain('<!--page-head-->');
    expect(html).toContain('<script type="module" src="/assets/index.js"></script>');
  });

  it('marks any other path noindex, with the landing page’s texts and no canonical link', () => {
    const { html, indexable } = pages().render('/dashboard');
    expect(indexable).toBe(false);
    expect(html).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(html).toContain('<title>Engram: remember</title>');
    expect(html).not.toContain('canonical');
  });

  it('carries the public configuration as JSON that cannot close its script element', () => {
    const { html } = pages({ supportEmail: 'help@engram.example', analyticsId: '</script><script>alert(1)' }).render(
      '/',
    );
    const block = /<script id="engram-config" type="application\/json">(.*?)<\/script>/.exec(html)?.[1] ?? '';
    expect(block).not.toContain('<');
    expect(JSON.parse(block)).toEqual({
      supportEmail: 'help@engram.example',
      analyticsId: '</script><script>alert(1)',
    });
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('point crawlers at the public pages and away from the API', () => {
    expect(robotsTxt('https://engram.example/')).toBe(
      'User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: https://engram.example/sitemap.xml\n',
    );
    const sitemap = sitemapXml(pages().indexableUrls());
    expect(sitemap).toContain('<loc>https://engram.example/</loc>');
    expect(sitemap).toContain('<loc>https://engram.example/terms</loc>');
  });
});
