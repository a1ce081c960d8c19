// The record that an account was erased, so events about the user that arrive after the erasure (a
// review, a subscription, a membership that travelled behind UserDeleted) are refused instead of creating
// rows again. Each service that keeps users' data keeps it in its own schema: the table `erased_users`
// (model `ErasedUser`, `user_hash` and `erased_at`) in its schema.prisma, drafted into a migration.
//
// It holds a SHA-256 of the user's id, never the id. No salt: identity's ids are random UUIDs (122 random
// bits), so the hash cannot be reversed by trying ids, and a per-deployment secret would add a setting to
// every service without making it any harder. Knowing an id, one can learn that it was erased; nothing
// else.
//
// Erasure and the consumers' checks meet on an advisory lock of the user: the erasure holds it
// exclusively until it commits, a check shares it, so a late event either commits before the erasure
// (whose deletes then take its rows too) or reads the record after it.
import { createHash } from 'node:crypto';
import { executeCount, type SqlExecutor } from './outbox.js';

/** The one-way hash an erasure is recorded under: SHA-256 of the id, hex. */
export function erasedUserHash(userId: string): string {
  return createHash('sha256').update(userId, 'utf8').digest('hex');
}

const LOCK = `SELECT pg_advisory_xact_lock(hashtext('engram.erased-user'), hashtext($1))`;
const LOCK_SHARED = `SELECT pg_advisory_xact_lock_shared(hashtext('engram.erased-user'), hashtext($1))`;

/**
 * Records, in the erasing transaction and before its deletes, that the user was erased; a repeat
 * changes nothing.
 */
export async function recordErasure(tx: SqlExecutor, userId: string): Promise<void> {
  const hash = erasedUserHash(userId);
  await executeCount(tx, LOCK, [hash]);
  await executeCount(tx, 'INSERT INTO erased_users (user_hash) VALUES ($1) ON CONFLICT DO NOTHING', [hash]);
}

/**
 * Whether the user was erased, asked inside the transaction that would write their rows: a consumer of
 * an event about a user returns without writing when it was.
 */
export async function wasErased(tx: SqlExecutor, userId: string): Promise<boolean> {
  if (userId === '') return false;
  const hash = erasedUserHash(userId);
  await executeCount(tx, LOCK_SHARED, [hash]);
  return (await executeCount(tx, 'SELECT 1 FROM erased_users WHERE user_hash = $1', [hash])) > 0;
}

/**
 * Deletes the published outbox rows whose envelope mentions one of `ids` (the user's id, or ids of what
 * was theirs): once out, the stream has them, and the outbox keeps them only for a week of looking back.
 * Rows not yet published stay, or the event would be lost. It reads every published row (about 5 s per
 * million here): for outboxes of a few events per user, not one of every review.
 */
export async function forgetPublishedEvents(tx: SqlExecutor, ids: string[]): Promise<void> {
  const needles = ids.filter((id) => id !== '');
  if (needles.length === 0) return;
  await executeCount(
    tx,
    `DELETE FROM outbox_events
      WHERE published_at IS NOT NULL
        AND EXISTS (SELECT 1 FROM unnest($1::text[]) AS id WHERE position(convert_to(id, 'UTF8') IN payload) > 0)`,
    [needles],
  );
}
