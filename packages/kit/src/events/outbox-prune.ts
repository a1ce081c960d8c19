// Published outbox rows are only history once JetStream has them, and a consumer's record of an applied
// event is only needed while the stream can still deliver that event. A pruner deletes both past their
// retention, a batch per transaction so no delete holds locks for long, each batch under the schema's
// relay lock, so only the replica holding it prunes and the publish loop never waits on a prune.
// Unpublished rows are never touched, whatever their age. A service's other records that matter only for
// a while (idempotency keys of retried calls) are declared as retained records and pruned the same way.
import type pg from 'pg';
import { inTransaction } from '../db.js';
import { startCleanup } from '../jobs/periodic.js';
import type { Logger } from '../logger.js';
import { TAKE_RELAY_LOCK } from './outbox-publisher.js';

export const OUTBOX_RETENTION_MS = 7 * 24 * 3_600_000;
export const PRUNE_EVERY_MS = 3_600_000;
const BATCH = 1_000;

const PRUNE_OUTBOX = `
DELETE FROM outbox_events WHERE id IN (
  SELECT id FROM outbox_events
   WHERE published_at IS NOT NULL AND published_at < now() - make_interval(secs => $1 / 1000.0)
   LIMIT ${BATCH})`;

const PRUNE_PROCESSED = `
DELETE FROM processed_events WHERE (consumer, event_id) IN (
  SELECT consumer, event_id FROM processed_events
   WHERE processed_at < now() - make_interval(secs => $1 / 1000.0)
   LIMIT ${BATCH})`;

/** A table of records kept for a while: a row goes once its `column` (a timestamp) is `retentionMs` old.
 * The column should be indexed, so each batch reads only the rows it deletes. */
export interface RetainedRecords {
  table: string;
  column: string;
  retentionMs: number;
}

export interface PruneOptions {
  /** How long published events stay in the outbox (default 7 days). */
  outboxRetentionMs?: number;
  /** false for a service that publishes nothing (no relay, no outbox table): only the rest is pruned. */
  outbox?: boolean;
  /** How long a consumer remembers an applied event: the stream's max age; 0 or absent keeps them. */
  processedRetentionMs?: number;
  /** The service's own records that go after their retention. */
  records?: RetainedRecords[];
}

export interface PruneResult {
  outbox: number;
  processed: number;
  /** Rows of the retained records deleted, all tables together. */
  records: number;
  /** false when another replica held the relay lock, so this one left the pruning to it. */
  lockHeld: boolean;
}

/** One batch in its own transaction, under the relay lock; undefined when the lock is held elsewhere. */
function pruneBatch(pool: pg.Pool, sql: string, retentionMs: number): Promise<number | undefined> {
  return inTransaction(pool, async (client) => {
    const lock = await client.query<{ locked: boolean }>(TAKE_RELAY_LOCK);
    return lock.rows[0]?.locked ? ((await client.query(sql, [retentionMs])).rowCount ?? 0) : undefined;
  });
}

async function pruneTable(pool: pg.Pool, sql: string, retentionMs: number) {
  let deleted = 0;
  for (;;) {
    const batch = await pruneBatch(pool, sql, retentionMs);
    if (batch === undefined) return { deleted, lockHeld: false };
    deleted += batch;
    if (batch < BATCH) return { deleted, lockHeld: true };
  }
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/** The batch delete of one table of retained records; its names are the service's constants, checked. */
function pruneRecordsSql({ table, column }: RetainedRecords): string {
  if (!IDENTIFIER.test(table) || !IDENTIFIER.test(column)) {
    throw new Error(`retained records need plain table and column names, not ${table}.${column}`);
  }
  return `
DELETE FROM ${table} WHERE ctid IN (
  SELECT ctid FROM ${table}
   WHERE ${column} < now() - make_interval(secs => $1 / 1000.0)
   LIMIT ${BATCH})`;
}

export async function pruneEvents(pool: pg.Pool, options: PruneOptions = {}): Promise<PruneResult> {
  const records = (options.records ?? []).map((retained) => ({ sql: pruneRecordsSql(retained), retained }));
  const outbox =
    options.outbox === false
      ? { deleted: 0, lockHeld: true }
      : await pruneTable(pool, PRUNE_OUTBOX, options.outboxRetentionMs ?? OUTBOX_RETENTION_MS);
  if (!outbox.lockHeld) return { outbox: outbox.deleted, processed: 0, records: 0, lockHeld: false };
  const processedRetentionMs = options.processedRetentionMs ?? 0;
  const processed =
    processedRetentionMs > 0
      ? await pruneTable(pool, PRUNE_PROCESSED, processedRetentionMs)
      : { deleted: 0, lockHeld: true };
  const result = { outbox: outbox.deleted, processed: processed.deleted, records: 0, lockHeld: processed.lockHeld };
  for (const { sql, retained } of records) {
    if (!result.lockHeld) break;
    const pruned = await pruneTable(pool, sql, retained.retentionMs);
    result.records += pruned.deleted;
    result.lockHeld = pruned.lockHeld;
  }
  return result;
}

/** Deletes published events older than `retentionMs`; returns how many went. */
export async function prunePublishedEvents(pool: pg.Pool, retentionMs = OUTBOX_RETENTION_MS): Promise<number> {
  return (await pruneEvents(pool, { outboxRetentionMs: retentionMs })).outbox;
}

export interface Pruner {
  stop(): Promise<void>;
}

/** Prunes now and then every `intervalMs`, beside the publish loop (a periodic clean-up, jobs/periodic.ts). */
export function startPruner(
  pool: pg.Pool,
  logger: Logger,
  options: PruneOptions & { intervalMs?: number } = {},
): Pruner {
  return startCleanup(
    {
      does: 'prune the outbox, processed events and retained records',
      everyMs: options.intervalMs ?? PRUNE_EVERY_MS,
      turn: async () => {
        const { outbox, processed, records } = await pruneEvents(pool, options);
        return { outbox, processed, records };
      },
    },
    logger,
  );
}
