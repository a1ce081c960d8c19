// The rating buttons' labels: what each rating would give an item, computed by the same FSRS scheduling
// (with the learner's own settings) that records the review, both for the items listed as due and, in a
// review's answer, for the item's next review.
import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS, RATINGS, type RatingName } from '@engram/contracts/learning';
import {
  DEFAULT_PARAMETERS,
  type MemoryState,
  newMemoryState,
  nextIntervals,
  type SchedulingSettings,
  scheduleReview,
} from '@engram/contracts/scheduler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

const MINUTE = 60;
const DAY = 86_400;
const settings: SchedulingSettings = { ...DEFAULT_SETTINGS, parameters: DEFAULT_PARAMETERS, fuzz: false };

/** Seconds from `at` to the due time `rating` really gives. */
const scheduledSeconds = (with_: SchedulingSettings, memory: MemoryState, rating: RatingName, at: Date) =>
  Math.round((scheduleReview(with_, memory, rating, at).next.due.getTime() - at.getTime()) / 1000);

describe('the interval each rating would give', () => {
  it('follows the learning steps for a new item: again in a minute, good in ten, easy in days', () => {
    const at = new Date('2026-01-01T09:00:00Z');
    const intervals = nextIntervals(settings, newMemoryState(at), at);
    expect(intervals.again).toBe(1 * MINUTE);
    expect(intervals.good).toBe(10 * MINUTE);
    expect(intervals.hard).toBeGreaterThan(intervals.again);
    expect(intervals.hard).toBeLessThan(intervals.good);
    expect(intervals.easy).toBeGreaterThanOrEqual(DAY);
  });

  it('names exactly the interval the review then gives, at every stage of an item (learning, review, relearning)', () => {
    let memory = newMemoryState(new Date('2026-01-01T09:00:00Z'));
    let at = memory.due;
    for (const rating of ['good', 'good', 'good', 'easy', 'again', 'hard', 'good'] as const) {
      const intervals = nextIntervals(settings, memory, at);
      for (const each of RATINGS) expect(intervals[each]).toBe(scheduledSeconds(settings, memory, each, at));
      memory = scheduleReview(settings, memory, rating, at).next;
      at = memory.due;
    }
    expect(memory.state).toBe('review');
  });

  it("uses the learner's settings: their own steps and their maximum interval", () => {
    const own: SchedulingSettings = { ...settings, learningSteps: ['2m', '15m'], maximumIntervalDays: 2 };
    const at = new Date('2026-01-01T09:00:00Z');
    const intervals = nextIntervals(own, newMemoryState(at), at);
    expect(intervals.again).toBe(2 * MINUTE);
    expect(intervals.good).toBe(15 * MINUTE);
    expect(intervals.easy).toBeLessThanOrEqual(2 * DAY);
  });
});

describe('intervals from the service', () => {
  let cards: CardsHarness;
  beforeAll(async () => {
    cards = await startCardsHarness();
  });
  afterAll(() => cards?.stop());

  it("lists each due item with the interval each rating would give it, under the learner's steps", async () => {
    const learner = cards.as(`intervals-${randomUUID().slice(0, 8)}`);
    await learner.updateSettings({ fields: ['learning_steps'], settings: { learningSteps: ['3m', '20m'] } });
    await learner.createCard({ front: 'Q', back: 'A' });
    const [item] = (await learner.listDue()).items;
    expect(item?.nextIntervals).toMatchObject({ again: 3 * MINUTE, good: 20 * MINUTE });
    expect(item?.nextIntervals?.easy).toBeGreaterThanOrEqual(DAY);
  });

  it("answers a review with the intervals of the item's next review, and a retry of it the same", async () => {
    const learner = cards.as(`intervals-${randomUUID().slice(0, 8)}`);
    await learner.createCard({ front: 'Q', back: 'A' });
    const [item] = (await learner.listDue()).items;
    const request = { id: item!.id, rating: 'again', reviewId: randomUUID(), durationMs: 1000 };
    const answer = await learner.review(request);
    // Forgotten: it is on the first learning step again, so again is a minute and good the second step.
    expect(answer.nextIntervals).toMatchObject({ again: 1 * MINUTE, good: 10 * MINUTE });
    // What the next listing says of the same item agrees (easy, in days, is fuzzed by the time of asking).
    const [listed] = (await learner.listDue()).items;
    const { again, hard, good } = answer.nextIntervals!;
    expect(listed?.nextIntervals).toMatchObject({ again, hard, good });
    expect((await learner.review(request)).nextIntervals).toEqual(answer.nextIntervals);
  });
});
