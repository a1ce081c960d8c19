// Where a practice session waits out a page load: sessionStorage (this tab only), keyed by the user, with
// the tags it was started with, so a reload goes on from the same card and the results and undo still
// know what was rated. Cleared when the session ends.
import type { SavedSession, SessionItem } from './session';

const VERSION = 1;

interface Stored<T extends SessionItem> {
  version: number;
  tags: string;
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
): SavedSession<T> | undefined {
  try {
    const stored = JSON.parse(storage()?.getItem(keyOf(userId)) ?? 'null') as Stored<T> | null;
    if (stored?.version !== VERSION || stored.tags !== tagsKey(tags)) return undefined;
    return stored.session;
  } catch {
    return undefined;
  }
}

export function saveSession<T extends SessionItem>(
  userId: string,
  tags: readonly string[] | undefined,
  session: SavedSession<T>,
): void {
  const stored: Stored<T> = { version: VERSION, tags: tagsKey(tags), session };
  try {
    storage()?.setItem(keyOf(userId), JSON.stringify(stored));
  } catch {
    // Over the quota: this session will start afresh after a reload, which is what happened before.
  }
}

export function clearSavedSession(userId: string): void {
  storage()?.removeItem(keyOf(userId));
}
