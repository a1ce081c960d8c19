// FSRS memory state from an Anki card: stored state wins, else the review log replayed through ts-fsrs
// gives exactly what stepping ts-fsrs by hand gives; manual entries are skipped, previews logged only, and a
// reset (logged or not) starts the card again, as Anki's own FSRS reads its review log.
import { createEmptyCard, fsrs, type Grade, generatorParameters } from 'ts-fsrs';
import { describe, expect, it } from 'vitest';
import { memoryState } from '../../src/memory-state.ts';
import type { AnkiCard, AnkiRevlog } from '../../src/types.ts';

const card: AnkiCard = {
  id: 7,
  noteId: 1,
  ordinal: 0,
  deckId: 1,
  queue: 2,
  type: 2,
  due: 30,
  interval: 12,
  easeFactor: 2500,
  reps: 5,
  lapses: 1,
  fsrs: undefined,
};
const T0 = Date.UTC(2024, 0, 2, 9);
const DAY = 86_400_000;
const entry = (at: number, ease: number, type = 1, time = 5000, factor = 2500): AnkiRevlog => ({
  id: at,
  cardId: 7,
  ease,
  interval: 1,
  lastInterval: 0,
  factor,
  timeMs: time,
  type,
});
const revlog = [
  entry(T0, 3, 0),
  entry(T0 + DAY, 1),
  // "Set due date": manual, keeping the ease factor.
  entry(T0 + DAY + 1000, 0, 4),
  entry(T0 + 2 * DAY, 3, 2),
  // A preview in a filtered deck that does not reschedule: no ease factor.
  entry(T0 + 3 * DAY, 4, 3, 5000, 0),
  entry(T0 + 6 * DAY, 2, 1, 9_999_999),
];
const stepped = (entries: [number, Grade][]) => {
  const scheduler = fsrs(generatorParameters({ enable_fuzz: false, enable_short_term: true }));
  let expected = createEmptyCard(new Date(entries[0]![0]));
  for (const [at, grade] of entries) expected = scheduler.next(expected, new Date(at), grade).card;
  return expected;
};

describe('memoryState', () => {
  it('replays the review log as ts-fsrs stepped by hand', () => {
    const scheduler = fsrs(generatorParameters({ enable_fuzz: false, enable_short_term: true }));
    let expected = createEmptyCard(new Date(T0));
    const steps: [number, Grade][] = [
      [T0, 3],
      [T0 + DAY, 1],
      [T0 + 2 * DAY, 3],
      [T0 + 6 * DAY, 2],
    ];
    for (const [at, grade] of steps) expected = scheduler.next(expected, new Date(at), grade).card;
    const { memory, logs, source } = memoryState(card, revlog, { created: 0 });
    expect(source).toBe('replay');
    expect(memory.stability).toBeCloseTo(expected.stability, 10);
    expect(memory.difficulty).toBeCloseTo(expected.difficulty, 10);
    expect(memory.due).toEqual(expected.due);
    expect(memory.reps).toBe(4);
    expect(memory.lastReview).toEqual(new Date(T0 + 6 * DAY));
    // The manual entry is no log; the preview is, and changes nothing.
    expect(logs.map((log) => [log.rating, log.preview])).toEqual([
      [3, false],
      [1, false],
      [3, false],
      [4, true],
      [2, false],
    ]);
    expect(logs[3]!.previous).toEqual(logs[3]!.after);
    expect(logs[0]).toMatchObject({ reviewedAt: new Date(T0), durationMs: 5000, stateBefore: 'new' });
    expect(logs[4]!.durationMs).toBe(3_600_000);
    expect(logs[4]!.after.stability).toBeCloseTo(expected.stability, 10);
  });

  it('starts a card again after "Forget" (a manual entry without an ease factor), as a new card', () => {
    const forgotten = [entry(T0, 3, 0), entry(T0 + DAY, 3), entry(T0 + 5 * DAY, 0, 4, 0, 0), entry(T0 + 6 * DAY, 1, 0)];
    const { memory, logs } = memoryState(card, forgotten, { created: 0 });
    const expected = stepped([[T0 + 6 * DAY, 1]]);
    expect(memory.stability).toBeCloseTo(expected.stability, 10);
    expect(memory.reps).toBe(1);
    expect(logs.map((log) => log.stateBefore)).toEqual(['new', 'learning', 'new']);
  });

  it('starts a card again at a learning entry after reviews (Anki before 2.1.50 logged no reset)', () => {
    const relearned = [entry(T0, 3, 0), entry(T0 + 4 * DAY, 3), entry(T0 + 9 * DAY, 2, 0), entry(T0 + 10 * DAY, 3, 0)];
    const { memory, logs } = memoryState(card, relearned, { created: 0 });
    const expected = stepped([
      [T0 + 9 * DAY, 2],
      [T0 + 10 * DAY, 3],
    ]);
    expect(memory.stability).toBeCloseTo(expected.stability, 10);
    expect(logs[2]?.stateBefore).toBe('new');
  });

  it('moves the state with a filtered deck review that rescheduled (it keeps an ease factor)', () => {
    const filtered = [entry(T0, 3, 0), entry(T0 + 3 * DAY, 4, 3)];
    const { memory, logs } = memoryState(card, filtered, { created: 0 });
    const expected = stepped([
      [T0, 3],
      [T0 + 3 * DAY, 4],
    ]);
    expect(memory.stability).toBeCloseTo(expected.stability, 10);
    expect(logs.map((log) => log.preview)).toEqual([false, false]);
  });

  it('keeps Anki’s kind as the state before when the history lacks the card’s first learning', () => {
    const truncated = [entry(T0, 3, 1), entry(T0 + 9 * DAY, 1, 1), entry(T0 + 9 * DAY + 600_000, 3, 2)];
    const { logs } = memoryState(card, truncated, { created: 0 });
    // The optimizer leaves out an item whose history does not start as new (it knows nothing of its start).
    expect(logs[0]?.stateBefore).toBe('review');
    expect(logs.map((log) => log.stateBefore)).not.toContain('new');
  });

  it("takes Anki's stored FSRS state when there is one", () => {
    const created = Date.UTC(2024, 0, 1) / 1000;
    const stored = {
      ...card,
      fsrs: { stability: 42.5, difficulty: 6.25, desiredRetention: 0.9, lastReview: (T0 + 6 * DAY) / 1000 },
    };
    const { memory, logs, source } = memoryState(stored, revlog, { created });
    expect(source).toBe('anki');
    expect(memory).toMatchObject({
      state: 'review',
      stability: 42.5,
      difficulty: 6.25,
      reps: 5,
      lapses: 1,
      scheduledDays: 12,
    });
    expect(memory.due).toEqual(new Date((created + 30 * 86_400) * 1000));
    expect(memory.lastReview).toEqual(new Date(T0 + 6 * DAY));
    expect(logs).toHaveLength(5);
  });

  it('a card never reviewed is new and due now', () => {
    const now = new Date(T0);
    const { memory, logs, source } = memoryState({ ...card, type: 0, queue: 0 }, [], { created: 0, now });
    expect({ source, logs, state: memory.state, due: memory.due }).toEqual({
      source: 'new',
      logs: [],
      state: 'new',
      due: now,
    });
  });
});
