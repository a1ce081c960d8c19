// A shared device keeps the offline data of the account in use alone: another account's offline set (its cards'
// texts) goes, its reviews not yet synced stay apart in its own queue, and a database with nothing waiting goes
// whole. (IndexedDB here is fake-indexeddb, a complete implementation; Node has no Cache Storage, so no pictures.)
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import type { DeviceState } from '@engram/contracts/offline-practice';
import { describe, expect, it } from 'vitest';
import { databaseName } from '../../src/entities/offline/caches.ts';
import { DeviceStore } from '../../src/entities/offline/device-store.ts';
import { keepOfflineDataOf } from '../../src/entities/offline/keep-only.ts';

/** A stand-in offline set holding one card's text (the store keeps whatever it is given). */
const setWith = (text: string) => ({ set: { items: [{ front: text }] } }) as unknown as DeviceState;

async function deviceOf(userId: string, { text, waiting }: { text: string; waiting: number }) {
  const store = await DeviceStore.open(userId);
  await store.saveState(setWith(text));
  for (let n = 0; n < waiting; n += 1) {
    const review = { reviewId: randomUUID(), id: randomUUID(), rating: 'good', durationMs: 900 } as const;
    await store.queueWith({ kind: 'review', review: { ...review, reviewedAt: new Date().toISOString() } }, undefined);
  }
  store.close();
}

async function read(userId: string) {
  const store = await DeviceStore.open(userId);
  try {
    return { state: await store.state(), waiting: await store.unsyncedReviews() };
  } finally {
    store.close();
  }
}

const databases = async () => (await indexedDB.databases()).map(({ name }) => name);

describe('the offline data a device keeps', () => {
  it("forgets another account's cards when one signs in, and keeps its reviews waiting apart", async () => {
    const [ana, bruno] = [randomUUID(), randomUUID()];
    await deviceOf(ana, { text: 'Ana’s private question', waiting: 2 });
    await deviceOf(bruno, { text: 'Bruno’s question', waiting: 0 });
    await keepOfflineDataOf(bruno, { media: true });
    expect(await read(ana)).toEqual({ state: undefined, waiting: 2 });
    expect((await read(bruno)).state).toEqual(setWith('Bruno’s question'));
  });

  it('drops the whole database of an account with nothing waiting once no one is signed in', async () => {
    const [carla, davi] = [randomUUID(), randomUUID()];
    await deviceOf(carla, { text: 'Carla’s question', waiting: 0 });
    await deviceOf(davi, { text: 'Davi’s question', waiting: 1 });
    await keepOfflineDataOf(null, { media: true });
    await expect.poll(databases).not.toContain(databaseName(carla));
    expect(await read(davi)).toEqual({ state: undefined, waiting: 1 });
  });
});
