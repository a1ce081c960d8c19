// What a browser profile still holds of a learner, read the way anyone at the device could: the Cache Storage
// (the service worker's caches), every IndexedDB database of the site, and the HTTP cache (asked with the service
// worker bypassed, `cache: 'only-if-cached'`, so nothing goes to the network).
import type { Page } from 'playwright-core';

/**
 * Where in `page`'s profile any of `texts` is still found (in a cached URL or body, or an IndexedDB record), and
 * which of `urls` the HTTP cache still answers: one line per place, empty when the device holds none of them.
 */
export async function whereKept(page: Page, texts: readonly string[], urls: readonly string[] = []): Promise<string[]> {
  // (In-page code as a string: this package's TypeScript has no DOM types.)
  const stored = (await page.evaluate(`(async (needles) => {
    const found = [];
    const holds = (text) => needles.filter((needle) => text.includes(needle));
    const request = (ask) => new Promise((resolve, reject) => {
      ask.onsuccess = () => resolve(ask.result);
      ask.onerror = () => reject(ask.error);
    });
    // A database deleted since it was listed is not made again by opening it.
    const openExisting = (name) => new Promise((resolve) => {
      const open = indexedDB.open(name);
      open.onupgradeneeded = () => open.transaction.abort();
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => resolve(undefined);
    });
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const asked of await cache.keys()) {
        const response = await cache.match(asked);
        const type = response?.headers.get('content-type') ?? '';
        const body = /^(text|application\\/(json|javascript))/.test(type) ? await response.text() : '';
        for (const needle of holds(asked.url + '\\n' + body)) found.push('cache ' + name + ': ' + asked.url + ' holds ' + needle);
      }
    }
    for (const { name } of await indexedDB.databases()) {
      const db = await openExisting(name);
      if (!db) continue;
      for (const store of Array.from(db.objectStoreNames)) {
        const records = await request(db.transaction(store).objectStore(store).getAll());
        for (const needle of holds(JSON.stringify(records))) found.push('IndexedDB ' + name + '/' + store + ' holds ' + needle);
      }
      db.close();
    }
    return found;
  })(${JSON.stringify(texts)})`)) as string[];
  return [...stored, ...(await inHttpCache(page, urls)).map((url) => `HTTP cache holds ${url}`)];
}

/** Which of `urls` the browser's HTTP cache answers, without the network and without the service worker. */
export async function inHttpCache(page: Page, urls: readonly string[]): Promise<string[]> {
  if (urls.length === 0) return [];
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('Network.enable');
    await cdp.send('Network.setBypassServiceWorker', { bypass: true });
    return (await page.evaluate(`(async (asked) => {
      const cached = [];
      for (const url of asked) {
        const response = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' }).catch(() => undefined);
        if (response?.ok) cached.push(url);
      }
      return cached;
    })(${JSON.stringify(urls)})`)) as string[];
  } finally {
    await cdp.send('Network.setBypassServiceWorker', { bypass: false });
    await cdp.detach();
  }
}

/** How many reviews and undos wait in the queue `userId` left on `page`'s device (0 when it has none). */
export const queuedOf = async (page: Page, userId: string): Promise<number> =>
  (await page.evaluate(`(async (name) => {
    if (!(await indexedDB.databases()).some((db) => db.name === name)) return 0;
    const db = await new Promise((resolve) => {
      const open = indexedDB.open(name);
      open.onupgradeneeded = () => open.transaction.abort();
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => resolve(undefined);
    });
    if (!db) return 0;
    const count = await new Promise((resolve) => { const read = db.transaction('queue').objectStore('queue').count(); read.onsuccess = () => resolve(read.result); });
    db.close();
    return count;
  })('engram-offline-${userId}')`)) as number;
