// Where a practice session waits out a page load: sessionStorage (this tab only), keyed by the user, with
// the tags it was started with, so a reload goes on from the same card and the results and undo still
// know what was rated. Cleared when the session ends, and not resumed once it has been left alone for
// SAVED_SESSION_MAX_AGE_MS: by then the cards' schedule may have moved (a review on another device, a new
// study day), so the due list is fetched afresh (unless reviews are still waiting to be sent).
import type { SavedSession, SessionItem } from './session';

const VERSION = 2;

/** How long a session left alone is kept for a reload: an hour after its last step. */
export const SAVED_SESSION_MAX_AGE_MS = 60 * 60 * 1000;

interface Stored<T extends SessionItem> {
  version: number;
  tags: string;
  /** When the session last moved (ms since the epoch). */
  savedAt: number;
  session: SavedSession<T>;
}

const keyOf = (userId: string) => `engram.practice.${userId}`;
const tagsKey = (tags: readonly string[] | undefined) => JSON.stringify([...(tags ?? [])].sort());

function storage(): Storage | undefined {
  try {
    return window.sessionStorage;
  } catch {
    return undefined; // storage switched off: the session simply does not survive a reload
  }
}

/** The session this user left in this tab for these tags, if any. */
export function loadSavedSession<T extends SessionItem>(
  userId: string,
  tags: readonly string[] | undefined,
  now = Date.now(),
): SavedSession<T> | undefined {
  try {
    const stored = JSON.parse(storage()?.getItem(keyOf(userId)) ?? 'null') as Stored<T> | null;
    if (stored?.version !== VERSION || stored.tags !== tagsKey(tags)) return undefined;
    const age = now - stored.savedAt;
    // A stale session with reviews still unsent goes on all the same: they are the learner's work.
    if (!(age >= 0 && age <= SAVED_SESSION_MAX_AGE_MS) && stored.session.outbox.length === 0) return undefined;
    return stored.session;
  } catch {
    return undefined;
  }
}

export function saveSession<T extends SessionItem>(
  userId: string,
  tags: readonly string[] | undefined,
  session: SavedSession<T>,
  now = Date.now(),
): void {
  const stored: Stored<T> = { version: VERSION, tags: tagsKey(tags), savedAt: now, session };
  try {
    storage()?.setItem(keyOf(userId), JSON.stringify(stored));
  } catch {
    // Over the quota: this session will start afresh after a reload, which is what happened before.
  }
}

export function clearSavedSession(userId: string): void {
  storage()?.removeItem(keyOf(userId));
}
