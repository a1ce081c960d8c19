// Waking the relay once events have committed. A NOTIFY inside the writing transaction would do it, but
// PostgreSQL serializes the commits of notifying transactions database-wide (the notification queue's
// lock is held until the commit record is flushed), which capped every service's writes at one commit
// per WAL flush. So the notification goes out after the commit, outside any transaction (such a NOTIFY
// writes no WAL and holds the lock briefly), with at most one in flight per pool or client, and at most one
// per ANNOUNCE_GAP_MS: announcements made meanwhile fold into one more, sent when the gap is over. (Under
// load each NOTIFY is a round trip of its own; one per commit cost nearly half a round trip per review,
// and the relay lingers that long after a notification anyway.) An announcement that never goes out (a
// crash right after the commit) only delays the events until the relay's next poll.
import type pg from 'pg';
import { OUTBOX_CHANNEL_PREFIX } from './tables.js';

/** What can send the notification: a pg pool, or a Prisma client (`$executeRawUnsafe`). */
export type Announcer = Pick<pg.Pool, 'query'> | { $executeRawUnsafe(query: string): Promise<number> };

const NOTIFY = `SELECT pg_notify('${OUTBOX_CHANNEL_PREFIX}' || current_schema(), '')`;

/** The shortest time between two announcements through one pool or client. */
export const ANNOUNCE_GAP_MS = 5;

interface Pending {
  inFlight: boolean;
  again: boolean;
}

const pending = new WeakMap<object, Pending>();

function send(via: Announcer): Promise<unknown> {
  return '$executeRawUnsafe' in via ? via.$executeRawUnsafe(NOTIFY) : via.query(NOTIFY);
}

/** Tells the schema's relay (in whichever replica runs it) that committed events wait in the outbox. */
export function announceOutbox(via: Announcer): void {
  let state = pending.get(via);
  if (!state) {
    state = { inFlight: false, again: false };
    pending.set(via, state);
  }
  if (state.inFlight) {
    state.again = true;
    return;
  }
  const current = state;
  current.inFlight = true;
  const sentAt = Date.now();
  const next = () => {
    current.inFlight = false;
    if (current.again) {
      current.again = false;
      announceOutbox(via);
    }
  };
  // A failed announcement is not an error of the write that made it: the relay's poll covers for it.
  void send(via)
    .catch(() => undefined)
    .finally(() => {
      const rest = sentAt + ANNOUNCE_GAP_MS - Date.now();
      if (rest > 0) setTimeout(next, rest);
      else next();
    });
}
