// The names of the service worker's caches (sw.ts), shared with the page that fills or clears them.

/** The last page the network answered, opened as the app's shell when it does not. */
export const PAGES_CACHE = 'engram-pages';

/** Cards' pictures and sounds, kept for offline practice; they are the signed-in learner's, cleared on sign-out. */
export const MEDIA_CACHE = 'engram-media';

/** The most files kept; the oldest go first. */
export const MEDIA_CACHE_MAX_ENTRIES = 2000;
