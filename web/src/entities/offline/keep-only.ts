// This device keeps the offline data of the account in use here alone (issue 41: a shared device): when a session is
// found ended online, or another account is in use, every other account's offline set and the cards' pictures go
// (forget.ts). Asked on every change of session (lib/session-cache.ts) and before the device opens (device.ts), so
// it is cheap: it asks the browser which databases and caches there are, and loads the code that forgets only when
// there is something to forget.
import { databaseOwner, MEDIA_CACHE } from './caches';

let forgetting: Promise<void> = Promise.resolve();

/** The accounts with a database on this device (none where the browser cannot list them). */
async function accountsKept(): Promise<string[]> {
  if (typeof indexedDB === 'undefined' || !indexedDB.databases) return [];
  const databases = await indexedDB.databases();
  return databases.flatMap(({ name }) => databaseOwner(name ?? '') ?? []);
}

/**
 * Forgets the offline sets of every account but `userId` (null: of every account), their reviews not yet synced
 * kept apart; and, when `media`, the cards' pictures and sounds kept. Calls run one after the other.
 */
export function keepOfflineDataOf(userId: string | null, { media }: { media: boolean }): Promise<void> {
  forgetting = forgetting.then(async () => {
    const others = (await accountsKept()).filter((owner) => owner !== userId);
    const mediaKept = media && typeof caches !== 'undefined' && (await caches.has(MEDIA_CACHE));
    if (others.length === 0 && !mediaKept) return;
    const { forgetOfflineData } = await import('./forget');
    await forgetOfflineData(others, mediaKept);
  });
  // A browser that refuses (storage switched off) has nothing kept to forget; the next call tries again.
  forgetting = forgetting.catch(() => undefined);
  return forgetting;
}

/** Resolves once what was asked to be forgotten is gone (the device opens its own after it). */
export const forgotten = (): Promise<void> => forgetting;
