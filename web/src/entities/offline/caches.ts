// The names of what this device keeps for practising offline: the service worker's caches (sw.ts), shared with the
// page that fills or clears them, and the learners' offline databases (device-store.ts).

/** The last page the network answered, opened as the app's shell when it does not. */
export const PAGES_CACHE = 'engram-pages';

/**
 * Cards' pictures and sounds, kept for offline practice: the account in use's alone, forgotten when it signs out,
 * is found signed out, or another account is used here (keep-only.ts).
 */
export const MEDIA_CACHE = 'engram-media';

/** The most files kept; the oldest go first. */
export const MEDIA_CACHE_MAX_ENTRIES = 2000;

const DATABASE_PREFIX = 'engram-offline-';

/** The IndexedDB database of one account: its offline set and its queue of reviews not yet synced. */
export const databaseName = (userId: string) => `${DATABASE_PREFIX}${userId}`;

/** The account whose database `name` is, if it is one. */
export const databaseOwner = (name: string): string | undefined =>
  name.startsWith(DATABASE_PREFIX) ? name.slice(DATABASE_PREFIX.length) : undefined;
