// Serves the built web app: hashed assets cached for a year, the service worker and manifest never kept without
// asking again; every other GET that accepts HTML answered
// with index.html (never cached), so client-side routes survive a reload, its <head> filled in for the
// path (page-heads.ts); robots.txt and sitemap.xml from the same list of public pages.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import { type HtmlPages, htmlPages, type PublicConfig, readPageHeads, robotsTxt, sitemapXml } from './page-heads.js';

export function spa(distDir: string, publicBaseUrl: string, config: PublicConfig): Router {
  const spaRouter = Router();
  const index = join(distDir, 'index.html');
  // Read again whenever a new build replaced index.html (a rebuild while the stack runs).
  let pages: { builtAt: number; pages: HtmlPages } | undefined;
  const loadPages = () => {
    const builtAt = statSync(index).mtimeMs;
    if (pages?.builtAt !== builtAt) {
      const template = readFileSync(index, 'utf8');
      pages = { builtAt, pages: htmlPages(template, readPageHeads(distDir), publicBaseUrl, config) };
    }
    return pages.pages;
  };

  spaRouter.use(
    '/assets',
    express.static(join(distDir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }),
  );
  spaRouter.get('/robots.txt', (_req, res) => {
    res.type('text/plain').setHeader('cache-control', 'public, max-age=3600');
    res.send(robotsTxt(publicBaseUrl));
  });
  spaRouter.get('/sitemap.xml', (_req, res, next) => {
    if (!existsSync(index)) return next();
    res.type('application/xml').setHeader('cache-control', 'public, max-age=3600');
    res.send(sitemapXml(loadPages().indexableUrls()));
  });
  spaRouter.use(
    express.static(distDir, {
      index: false,
      maxAge: '1h',
      // The service worker and the manifest name the version: a browser asks for them again at each start.
      setHeaders: (res, path) => {
        if (/(?:^|[/\\])(?:sw\.js|manifest\.webmanifest)$/.test(path)) res.setHeader('cache-control', 'no-cache');
      },
    }),
  );
  spaRouter.get('/{*path}', (req: Request, res: Response, next: NextFunction) => {
    if (req.path.startsWith('/api/') || !req.accepts('html')) return next();
    if (!existsSync(index)) {
      res
        .status(503)
        .type('text/plain')
        .send('The web app is not built: run `npm start` (or pnpm --filter @engram/web build).');
      return;
    }
    const page = loadPages().render(req.path);
    res.setHeader('cache-control', 'no-cache');
    if (!page.indexable) res.setHeader('x-robots-tag', 'noindex, nofollow');
    res.type('html').send(page.html);
  });
  return spaRouter;
}
