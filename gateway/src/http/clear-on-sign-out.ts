// A sign-out's answer tells the browser to empty its HTTP cache of this site (`Clear-Site-Data: "cache"`), so the
// next person at a shared device finds nothing of the learner there, whatever an older version let it keep. Not
// "storage": that would also delete what must outlive a sign-out — the reviews done offline and not yet synced,
// of this account and of others on the device (IndexedDB), the installed app (the service worker and its
// precache) and the device's own choices (localStorage). The app removes the learner's offline set and pictures
// itself (web/src/entities/offline/forget.ts). Nor "cookies": better-auth ends the session's own.
import type { NextFunction, Request, Response } from 'express';

const SIGN_OUT_PATH = '/api/auth/sign-out';

export function clearCacheOnSignOut(req: Request, res: Response, next: NextFunction): void {
  if (req.method === 'POST' && req.path === SIGN_OUT_PATH) res.setHeader('clear-site-data', '"cache"');
  next();
}
