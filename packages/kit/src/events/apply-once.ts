// Applying an event at most once per consumer: the processed_events row and the handler's writes commit
// in one transaction, so a redelivered or republished event finds its row and is skipped. The
// transaction is a Prisma interactive transaction (`prismaTransactions`), so handlers write with the
// service's models, or a pg transaction (`pgTransactions`) for services on raw SQL.
import type { EventEnvelope } from '@engram/proto/events/v1/envelope';
import type pg from 'pg';
import { inTransaction, TransactionAborted } from '../db.js';
import { executeCount, type PrismaRawExecutor, type PrismaTransactionRunner, prismaTransaction } from './outbox.js';

/** Applies one event inside the transaction it is given; throwing rolls the transaction back. */
export type EventHandler<Tx = pg.PoolClient> = (envelope: EventEnvelope, tx: Tx) => Promise<void>;

/** Runs work in one transaction: committed when it resolves, rolled back when it throws. */
export interface EventTransactions<Tx> {
  run<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
}

/** The handler threw: the event is retried and, after the last allowed delivery, parked. */
export class HandlerFailed extends Error {
  constructor(cause: unknown) {
    super(`event handler failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'HandlerFailed';
  }
}

/** Transactions on a pg pool whose search_path is the service's schema. */
export function pgTransactions(pool: pg.Pool): EventTransactions<pg.PoolClient> {
  return {
    run: (work) =>
      inTransaction(pool, work).catch((error) => {
        // A handler that swallowed a failed statement leaves the transaction aborted; COMMIT then rolls back.
        throw error instanceof TransactionAborted ? new HandlerFailed(error) : error;
      }),
  };
}

/**
 * Prisma interactive transactions. `timeoutMs` bounds a handler (Prisma's default of 5 s is short for
 * erasing a user's data); keep it below the consumer's ack wait.
 */
export function prismaTransactions<Tx extends PrismaRawExecutor>(
  prisma: PrismaTransactionRunner<Tx>,
  timeoutMs = 20_000,
): EventTransactions<Tx> {
  return { run: (work) => prismaTransaction(prisma, work, { maxWait: 5_000, timeout: timeoutMs }) };
}

const RECORD_PROCESSED = `
INSERT INTO processed_events (consumer, event_id) VALUES ($1, $2::uuid)
ON CONFLICT DO NOTHING`;

export type ApplyOutcome = 'applied' | 'already-applied';

class AlreadyApplied extends Error {}

/**
 * Errors other than HandlerFailed come from PostgreSQL itself (unreachable, event id not a UUID, ...);
 * the caller retries them without counting them against the handler.
 */
export async function applyOnce<Tx extends pg.PoolClient | PrismaRawExecutor>(
  transactions: EventTransactions<Tx>,
  consumer: string,
  envelope: EventEnvelope,
  handle: EventHandler<Tx>,
): Promise<ApplyOutcome> {
  try {
    await transactions.run(async (tx) => {
      // A concurrent delivery of the same event waits here on the primary key until this one commits.
      if ((await executeCount(tx, RECORD_PROCESSED, [consumer, envelope.id])) === 0) throw new AlreadyApplied();
      try {
        await handle(envelope, tx);
      } catch (error) {
        throw new HandlerFailed(error);
      }
    });
    return 'applied';
  } catch (error) {
    if (error instanceof AlreadyApplied) return 'already-applied';
    throw error;
  }
}
