// What the media handlers use beside the database: the object store that holds the bytes, and the
// learner's storage quota (their plan's, as billing answers it).
import type { CallContext } from '@engram/kit/grpc/server';
import type { ObjectStore } from '@engram/kit/storage';
import type { Compute } from '../compute/compute-pool.js';
import type { Db } from '../db.js';

export interface Quota {
  plan: string;
  quotaBytes: number;
}

export interface MediaDeps {
  db: Db;
  store: ObjectStore;
  /** The caller's plan and the bytes of card files it lets them keep. */
  quotaOf: (ctx: CallContext) => Promise<Quota>;
  /** Where an uploaded file is checked and re-encoded: child processes (media/keep-file-apart.ts). */
  fileChecks: Compute;
}
