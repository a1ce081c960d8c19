// Forgets on this device the offline data of accounts no longer in use here (keep-only.ts decides whose). Each
// one's offline set — its cards' texts, pictures' addresses, memory states and settings — goes from its database;
// its reviews not yet synced stay there apart, in its own queue, which holds no card text (ids, ratings, times),
// and are sent first when that account signs in here again; with nothing waiting the database goes whole. The
// cards' pictures and sounds go from the service worker's cache, with Workbox's record of them (their addresses
// name the files).
import { deleteDB } from 'idb';
import { databaseName, MEDIA_CACHE, MEDIA_CACHE_MAX_ENTRIES } from './caches';
import { DeviceStore } from './device-store';

export async function forgetOfflineData(userIds: readonly string[], media: boolean): Promise<void> {
  for (const userId of userIds) {
    const store = await DeviceStore.open(userId);
    let waiting: number;
    try {
      waiting = await store.forgetSet();
    } finally {
      store.close();
    }
    // Not awaited: another tab's connection closes when asked (device-store.ts), but one that does not must not
    // hold up the device.
    if (waiting === 0) void deleteDB(databaseName(userId)).catch(() => undefined);
  }
  if (media) {
    await caches.delete(MEDIA_CACHE);
    // Workbox's own code loads only with files to forget.
    const { CacheExpiration } = await import('workbox-expiration');
    await new CacheExpiration(MEDIA_CACHE, { maxEntries: MEDIA_CACHE_MAX_ENTRIES }).delete();
  }
}
