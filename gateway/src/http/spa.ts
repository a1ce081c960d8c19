// Serves the built web app: hashed assets cached for a year, index.html never cached, and every other
// GET that accepts HTML answered with index.html so client-side routes survive a reload.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import express, { type NextFunction, type Request, type Response, Router } from 'express';

export function spa(distDir: string): Router {
  const spaRouter = Router();
  const index = join(distDir, 'index.html');
  spaRouter.use(
    '/assets',
    express.static(join(distDir, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }),
  );
  spaRouter.use(express.static(distDir, { index: false, maxAge: '1h' }));
  spaRouter.get('/{*path}', (req: Request, res: Response, next: NextFunction) => {
    if (req.path.startsWith('/api/') || !req.accepts('html')) return next();
    if (!existsSync(index)) {
      res
        .status(503)
        .type('text/plain')
        .send('The web app is not built: run `npm start` (or pnpm --filter @engram/web build).');
      return;
    }
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
  return spaRouter;
}
