// A practice session survives a reload of its tab, for its learner and the tags it was started with; one
// left alone for over an hour starts afresh from the due list, unless reviews are still waiting to be sent.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  clearSavedSession,
  loadSavedSession,
  SAVED_SESSION_MAX_AGE_MS,
  saveSession,
} from '../../src/features/practice/saved-session.ts';
import type { SavedSession, SessionItem } from '../../src/features/practice/session.ts';

const item: SessionItem = { id: 'a', cardId: 'card-a', front: 'Q', back: 'A' };

const session = (outbox: SavedSession<SessionItem>['outbox'] = []): SavedSession<SessionItem> => ({
  queue: [item],
  position: 0,
  showing: null,
  revealed: false,
  returning: [],
  history: [],
  outbox,
  refused: [],
});

/** The tab's sessionStorage, as the browser keeps it. */
beforeEach(() => {
  const values = new Map<string, string>();
  const storage = {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    removeItem: (key: string) => void values.delete(key),
  };
  Object.assign(globalThis, { window: { sessionStorage: storage } });
});
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'window');
});

describe('a saved practice session', () => {
  const saved = 1_000_000;

  it('goes on after a reload, for the same learner and tags only', () => {
    saveSession('ana', ['t2', 't1'], session(), saved);
    expect(loadSavedSession('ana', ['t1', 't2'], saved + 1000)).toEqual(session());
    expect(loadSavedSession('ana', ['t1'], saved + 1000)).toBeUndefined();
    expect(loadSavedSession('bo', ['t1', 't2'], saved + 1000)).toBeUndefined();
  });

  it('starts afresh once left alone for longer than an hour', () => {
    saveSession('ana', undefined, session(), saved);
    expect(loadSavedSession('ana', undefined, saved + SAVED_SESSION_MAX_AGE_MS)).toEqual(session());
    expect(loadSavedSession('ana', undefined, saved + SAVED_SESSION_MAX_AGE_MS + 1)).toBeUndefined();
  });

  it('goes on however old while reviews wait to be sent', () => {
    const unsent = session([
      {
        kind: 'review',
        review: { id: 'a', rating: 'good', reviewId: 'r1', durationMs: 1000, reviewedAt: '2026-11-27T10:00:00.000Z' },
      },
    ]);
    saveSession('ana', undefined, unsent, saved);
    expect(loadSavedSession('ana', undefined, saved + 24 * SAVED_SESSION_MAX_AGE_MS)).toEqual(unsent);
  });

  it('is gone once the session ends', () => {
    saveSession('ana', undefined, session(), saved);
    clearSavedSession('ana');
    expect(loadSavedSession('ana', undefined, saved)).toBeUndefined();
  });
});
