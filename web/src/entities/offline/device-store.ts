// What this device keeps of one learner for practising without the network, in IndexedDB (through idb): the
// offline set and the learner's settings it is scheduled with (DeviceState), the queue of reviews and undos done
// here and not yet synced (in the order they were done), and when the last sync was. One database per account,
// named by the user id: a review queued by one account can only ever be sent by that account, whoever signs in
// on the device next. Once the account is no longer in use here its set is forgotten and the queue stays
// (forget.ts).
import type { MemoryStateJson } from '@engram/contracts/memory-state';
import type { SyncedReview } from '@engram/contracts/offline';
import type { DeviceState } from '@engram/contracts/offline-practice';
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';
import { databaseName } from './caches';

/** A review as queued: what cards.syncReviews takes (the time as an ISO string). */
export type QueuedReview = Omit<SyncedReview, 'reviewedAt'> & { reviewedAt: string };

/** A review (with the item's state before it, when the device kept the item: an undo puts it back), or an undo. */
export type Delivery =
  | { kind: 'review'; review: QueuedReview; before?: MemoryStateJson }
  | { kind: 'undo'; reviewId: string };

export interface Queued {
  /** The queue's order: the order the learner did them. */
  seq: number;
  delivery: Delivery;
}

export interface SyncMeta {
  /** When the device last heard back from a sync (ISO), null before the first. */
  lastSyncAt: string | null;
}

interface OfflineSchema extends DBSchema {
  state: { key: 'device'; value: DeviceState };
  queue: { key: number; value: Delivery };
  meta: { key: 'sync'; value: SyncMeta };
}

const VERSION = 1;

export class DeviceStore {
  readonly userId: string;
  private readonly db: IDBPDatabase<OfflineSchema>;

  private constructor(userId: string, db: IDBPDatabase<OfflineSchema>) {
    this.userId = userId;
    this.db = db;
  }

  static async open(userId: string): Promise<DeviceStore> {
    const db = await openDB<OfflineSchema>(databaseName(userId), VERSION, {
      upgrade(database) {
        database.createObjectStore('state');
        database.createObjectStore('queue', { autoIncrement: true });
        database.createObjectStore('meta');
      },
      // Another tab deletes the database (its account signed out, nothing waiting): this connection must not hold it.
      blocking() {
        db.close();
      },
    });
    return new DeviceStore(userId, db);
  }

  state(): Promise<DeviceState | undefined> {
    return this.db.get('state', 'device');
  }

  async saveState(state: DeviceState): Promise<void> {
    await this.db.put('state', state, 'device');
  }

  /** Queues `delivery` and keeps `state` (the device's state after it, if it keeps one) in one transaction. */
  async queueWith(delivery: Delivery, state: DeviceState | undefined): Promise<void> {
    const tx = this.db.transaction(['queue', 'state'], 'readwrite');
    await Promise.all([
      tx.objectStore('queue').add(delivery),
      state && tx.objectStore('state').put(state, 'device'),
      tx.done,
    ]);
  }

  /** Everything queued, in order. */
  async queued(): Promise<Queued[]> {
    const tx = this.db.transaction('queue');
    const out: Queued[] = [];
    for (let cursor = await tx.store.openCursor(); cursor; cursor = await cursor.continue())
      out.push({ seq: cursor.key, delivery: cursor.value });
    return out;
  }

  /** How many reviews wait to be synced. */
  async unsyncedReviews(): Promise<number> {
    return (await this.queued()).filter(({ delivery }) => delivery.kind === 'review').length;
  }

  /** Forgets the offline set (the queue stays); answers how many reviews and undos wait in the queue. */
  async forgetSet(): Promise<number> {
    const tx = this.db.transaction(['state', 'queue'], 'readwrite');
    const [, waiting] = await Promise.all([tx.objectStore('state').clear(), tx.objectStore('queue').count(), tx.done]);
    return waiting;
  }

  async dequeue(seqs: readonly number[]): Promise<void> {
    const tx = this.db.transaction('queue', 'readwrite');
    await Promise.all([...seqs.map((seq) => tx.store.delete(seq)), tx.done]);
  }

  async meta(): Promise<SyncMeta> {
    return (await this.db.get('meta', 'sync')) ?? { lastSyncAt: null };
  }

  async saveMeta(meta: SyncMeta): Promise<void> {
    await this.db.put('meta', meta, 'sync');
  }

  close(): void {
    this.db.close();
  }
}
