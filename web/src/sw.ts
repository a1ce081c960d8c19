/// <reference lib="webworker" />
// The service worker (Workbox, built by vite-plugin-pwa into dist/sw.js): the app opens and practises without the
// network.
// - The app's code, styles, fonts and icons are precached at install: every page of this version opens offline,
//   in either language, and a lazily loaded screen's code is there too.
// - Pages go to the network first (the gateway fills in each page's head and public configuration); the last page
//   that came back is kept as the shell an offline start opens, else the precached index.html.
// - A card's pictures and sounds (/media/...) are kept once fetched, up to a budget (the offline store fetches those
//   of the cards it keeps); a sound's range requests are answered from the kept file.
// - A new version installs in the background and waits: it takes over when every tab of the app has closed, on the
//   next start, never in the middle of a session (the page announces it, lib/service-worker.ts).
// - The first version a browser installs takes over the open tabs at once (there is no older one to wait for), so
//   the visit that installed it already keeps the cards' files for offline practice.
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { RangeRequestsPlugin } from 'workbox-range-requests';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import { MEDIA_CACHE, MEDIA_CACHE_MAX_ENTRIES, PAGES_CACHE } from './entities/offline/caches';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Claims on activating: a new version activates only once no tab runs an older one, so only uncontrolled tabs are
// taken (the first visit's).
clientsClaim();

/** Every page is the same app: the one key its shell is kept under, whichever page brought it. */
const SHELL_KEY = '/offline-shell';

const pages = new NetworkFirst({
  cacheName: PAGES_CACHE,
  networkTimeoutSeconds: 4,
  plugins: [new CacheableResponsePlugin({ statuses: [200] }), { cacheKeyWillBeUsed: async () => SHELL_KEY }],
});

registerRoute(
  new NavigationRoute(
    async (options) => {
      try {
        return await pages.handle(options);
      } catch {
        return (await matchPrecache('/index.html')) ?? Response.error();
      }
    },
    // The API's own pages (sign-in callbacks, verification links) and files are never the app.
    { denylist: [/^\/api\//, /^\/media\//] },
  ),
);

registerRoute(
  ({ url, request }) =>
    url.origin === self.location.origin && url.pathname.startsWith('/media/') && request.method === 'GET',
  new CacheFirst({
    cacheName: MEDIA_CACHE,
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new RangeRequestsPlugin(),
      new ExpirationPlugin({ maxEntries: MEDIA_CACHE_MAX_ENTRIES, purgeOnQuotaError: true }),
    ],
  }),
);
