// Personal parameters: the optimizer learns a learner's memory from their own reviews, counted in their own
// days, and the parameters are adopted only when they predict the learner's later reviews better.

import { memoryState } from '@engram/anki/memory-state';
import { openPackage } from '@engram/anki/open-package';
import type { AnkiCard, AnkiRevlog } from '@engram/anki/types';
import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import { studyDayOf } from '@engram/contracts/study-day';
import { ankiWrittenPackages } from '@engram/testkit/anki-witnesses';
import { FSRSBinding } from '@open-spaced-repetition/binding';
import { describe, expect, it } from 'vitest';
import { type LoggedReview, trainingItems } from '../../src/optimizer/history.ts';
import { optimize } from '../../src/optimizer/optimize.ts';
import { FORGETFUL_PARAMETERS, syntheticLearner } from '../../src/optimizer/synthetic-learner.ts';
import { stateNumber } from '../../src/review/item-row.ts';

const TOKYO = { timeZone: 'Asia/Tokyo', dayStartHour: 4 };
const UTC = { timeZone: 'UTC', dayStartHour: 4 };

const LEARNER = {
  parameters: FORGETFUL_PARAMETERS,
  firstDay: '2025-11-01',
  days: 365,
  newPerDay: 10,
  ...TOKYO,
  seed: 7,
};

const review = (itemId: string, rating: number, stateBefore: number, at: string, undone = false): LoggedReview => ({
  itemId,
  rating,
  stateBefore,
  reviewedAt: new Date(at),
  undone,
});

/** Each training item as [rating, days since the review before] pairs. */
const histories = (reviews: LoggedReview[], day = TOKYO) =>
  trainingItems(reviews, day).map(({ item }) => item.reviews.map((r) => [r.rating, r.deltaT]));

describe('a learner’s reviews as the optimizer reads them', () => {
  it('counts days as the learner’s study days, in their timezone from their day start', () => {
    // 00:30 on 2 November in Tokyo is still the study day of 1 November (the day starts at 4 am); 05:00 on
    // 3 November is that day's.
    const reviews = [review('a', 3, 0, '2025-11-01T15:30:00Z'), review('a', 3, 2, '2025-11-02T20:00:00Z')];
    expect(histories(reviews, TOKYO)).toEqual([
      [
        [3, 0],
        [3, 2],
      ],
    ]);
    expect(histories(reviews, UTC)).toEqual([
      [
        [3, 0],
        [3, 1],
      ],
    ]);
  });

  it('predicts each review on a later day from the ones before it; a learning step on the same day is 0 days apart', () => {
    // Again, then Good ten minutes later (learning steps), then Good three days on: only the last is predicted.
    const reviews = [
      review('a', 1, 0, '2025-11-01T01:00:00Z'),
      review('a', 3, 1, '2025-11-01T01:10:00Z'),
      review('a', 3, 2, '2025-11-04T01:00:00Z'),
      review('a', 1, 2, '2025-11-10T01:00:00Z'),
      review('a', 3, 3, '2025-11-10T01:10:00Z'),
    ];
    expect(histories(reviews)).toEqual([
      [
        [1, 0],
        [3, 0],
        [3, 3],
      ],
      [
        [1, 0],
        [3, 0],
        [3, 3],
        [1, 6],
      ],
    ]);
  });

  it('gives fsrs-rs no item without a review a day or more after the one before (it would abort the process)', () => {
    // A card learned and never seen again, and one whose every review fell on one day.
    const reviews = [
      review('learned', 1, 0, '2025-11-01T01:00:00Z'),
      review('learned', 3, 1, '2025-11-01T01:01:00Z'),
      review('learned', 3, 1, '2025-11-01T01:11:00Z'),
      review('crammed', 3, 0, '2025-11-02T01:00:00Z'),
      review('crammed', 1, 2, '2025-11-02T05:00:00Z'),
      review('crammed', 3, 3, '2025-11-02T05:10:00Z'),
    ];
    expect(histories(reviews)).toEqual([]);
    const learner = syntheticLearner({ ...LEARNER, days: 60 });
    const items = trainingItems(learner, TOKYO);
    expect(items.length).toBeGreaterThan(0);
    for (const { item } of items) expect(item.reviews.at(-1)?.deltaT).toBeGreaterThan(0);
  });

  it('leaves out undone reviews, what is not a rating, what came before a reset, and a card never seen new', () => {
    const reviews = [
      review('reset', 3, 0, '2025-11-01T01:00:00Z'),
      review('reset', 4, 2, '2025-11-05T01:00:00Z'),
      review('reset', 2, 0, '2025-11-20T01:00:00Z'),
      review('reset', 0, 2, '2025-11-21T01:00:00Z'),
      review('reset', 1, 2, '2025-11-22T01:00:00Z', true),
      review('reset', 3, 2, '2025-11-23T01:00:00Z'),
      review('imported', 3, 2, '2025-11-01T01:00:00Z'),
      review('imported', 3, 2, '2025-11-09T01:00:00Z'),
    ];
    expect(histories(reviews)).toEqual([
      [
        [2, 0],
        [3, 3],
      ],
    ]);
  });
});

describe('fitting a learner’s own parameters', () => {
  // A year of a learner in Tokyo who forgets faster than the defaults expect, with learning and relearning
  // steps (Again, then Good a minute and ten minutes later): as nearly every real card starts.
  const reviews = syntheticLearner(LEARNER);
  const items = trainingItems(reviews, TOKYO);

  it('learns from a history whose first reviews fall on one day', () => {
    const sameDaySteps = reviews.filter((r) => r.stateBefore === 1 || r.stateBefore === 3).length;
    expect(sameDaySteps).toBeGreaterThan(1_000);
  });

  it('finds parameters that predict the learner’s later reviews better than the defaults, and adopts them', async () => {
    const result = await optimize(items, { current: DEFAULT_PARAMETERS, relearningSteps: 1 });
    if (result.outcome !== 'adopted') throw new Error(`not adopted: ${JSON.stringify(result)}`);
    const { evaluation, parameters } = result;
    // Tested on the later fifth, fitted on the rest.
    expect(evaluation.trainedOn + evaluation.reviews).toBe(items.length);
    expect(evaluation.reviews).toBeGreaterThan(5_000);
    expect(evaluation.logLossAfter).toBeLessThan(evaluation.logLossBefore);
    expect(evaluation.rmseAfter).toBeLessThan(evaluation.rmseBefore);
    // What it found is the learner: first stabilities about a third of the defaults', a steeper decay. (w0, the
    // stability after a first Again, is hardly seen once learning steps follow every Again on the same day.)
    for (const index of [1, 2, 3]) {
      const truth = FORGETFUL_PARAMETERS[index] as number;
      expect(Math.abs((parameters[index] as number) - truth) / truth).toBeLessThan(0.35);
    }
    expect(Math.abs((parameters[20] as number) - (FORGETFUL_PARAMETERS[20] as number))).toBeLessThan(0.1);
    expect(parameters).toHaveLength(21);
  });

  it('keeps the parameters in use when the fitted ones do not predict better', async () => {
    const fitted = await optimize(items, { current: DEFAULT_PARAMETERS, relearningSteps: 1 });
    if (fitted.outcome !== 'adopted') throw new Error('not adopted');
    // The same fit again, against parameters that already are the learner's: nothing better to adopt.
    const again = await optimize(items, { current: FORGETFUL_PARAMETERS, relearningSteps: 1 });
    expect(again.outcome).toBe('not-better');
  });

  it('keeps the defaults below the minimum, and says how many reviews it has and needs', async () => {
    expect(await optimize(items.slice(0, 399), { current: DEFAULT_PARAMETERS, relearningSteps: 1 })).toEqual({
      outcome: 'too-few-reviews',
      reviews: 399,
      needed: 400,
    });
    const enough = await optimize(items.slice(0, 400), {
      current: DEFAULT_PARAMETERS,
      relearningSteps: 1,
      minimumReviews: 500,
    });
    expect(enough).toEqual({ outcome: 'too-few-reviews', reviews: 400, needed: 500 });
  });

  it('reports its progress while it fits', async () => {
    const progress: [number, number][] = [];
    await optimize(items, {
      current: DEFAULT_PARAMETERS,
      relearningSteps: 1,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(progress.length).toBeGreaterThan(0);
    const [done, total] = progress.at(-1) ?? [0, 0];
    expect(total).toBeGreaterThan(0);
    expect(done).toBeLessThanOrEqual(total);
  });

  it('stops when asked to, with the reason it was given', async () => {
    const stop = new AbortController();
    const fitting = optimize(items, {
      current: DEFAULT_PARAMETERS,
      relearningSteps: 1,
      signal: stop.signal,
      onProgress: () => stop.abort(new Error('the replica is shutting down')),
    });
    await expect(fitting).rejects.toThrow('the replica is shutting down');
  });
});

describe('study days of reviews across the year', () => {
  it('are those of the learner’s day, also across daylight-saving changes and half-hour timezones', () => {
    // Reviews every 7 minutes for a year, one item each pair: each pair's days apart must match studyDayOf.
    for (const day of [
      { timeZone: 'America/Sao_Paulo', dayStartHour: 4 },
      { timeZone: 'Europe/Lisbon', dayStartHour: 0 },
      { timeZone: 'Asia/Kolkata', dayStartHour: 5 },
      { timeZone: 'Australia/Lord_Howe', dayStartHour: 2 },
    ]) {
      const reviews: LoggedReview[] = [];
      const start = Date.parse('2025-01-01T00:00:00Z');
      for (let n = 0; n < 2 * 10_000; n += 2) {
        const first = new Date(start + n * 7 * 60_000 * 3);
        const second = new Date(first.getTime() + 7 * 60_000 * 17);
        reviews.push(review(`i${n}`, 3, 0, first.toISOString()), review(`i${n}`, 3, 2, second.toISOString()));
      }
      const daysApart = new Map(
        trainingItems(reviews, day).map(({ item, reviewedAt }) => [reviewedAt.getTime(), item.reviews[1]?.deltaT]),
      );
      for (let n = 0; n < reviews.length; n += 2) {
        const first = reviews[n] as LoggedReview;
        const second = reviews[n + 1] as LoggedReview;
        const expected =
          (Date.parse(studyDayOf(second.reviewedAt, day.timeZone, day.dayStartHour)) -
            Date.parse(studyDayOf(first.reviewedAt, day.timeZone, day.dayStartHour))) /
          86_400_000;
        // A pair on one study day is a learning step: no item to predict.
        expect(daysApart.get(second.reviewedAt.getTime())).toBe(expected > 0 ? expected : undefined);
      }
    }
  });
});

/** An Anki card's review log as the import keeps it (review logs), in the optimizer's terms. */
function importedReviews(card: AnkiCard, revlog: AnkiRevlog[], created: number): LoggedReview[] {
  return memoryState(card, revlog, { created })
    .logs.filter((log) => !log.preview)
    .map((log) => ({
      itemId: String(card.id),
      rating: log.rating,
      stateBefore: stateNumber(log.stateBefore),
      reviewedAt: log.reviewedAt,
      undone: false,
    }));
}

/** The items fsrs-rs is given; it panics (aborting the process) on one without a review a day after another. */
function expectFsrsTakes(reviews: LoggedReview[]) {
  const items = trainingItems(reviews, UTC);
  for (const { item } of items) expect(item.reviews.at(-1)?.deltaT).toBeGreaterThan(0);
  // Repeated, as fsrs-rs evaluates no fewer than a few dozen items.
  const repeated = Array.from({ length: 50 }, () => items.map(({ item }) => item)).flat();
  if (items.length > 0) expect(new FSRSBinding([...DEFAULT_PARAMETERS]).evaluate(repeated).logLoss).toBeGreaterThan(0);
  return items;
}

describe('review logs as Anki writes them', () => {
  const DAY = 86_400_000;
  const T0 = Date.UTC(2024, 2, 4, 9);
  const card: AnkiCard = {
    id: 1,
    noteId: 1,
    ordinal: 0,
    deckId: 1,
    queue: 2,
    type: 2,
    due: 0,
    interval: 0,
    easeFactor: 2500,
    reps: 0,
    lapses: 0,
    fsrs: undefined,
  };
  // Anki's revlog kinds: 0 learning, 1 review, 2 relearning, 3 filtered, 4 manual, 5 rescheduled.
  const entry = (at: number, ease: number, type: number, factor = 2500): AnkiRevlog => ({
    id: at,
    cardId: 1,
    ease,
    interval: 1,
    lastInterval: 0,
    factor,
    timeMs: 6000,
    type,
  });

  it('learning and relearning steps, a filtered deck, set due date, Forget and days skipped fit without a panic', () => {
    const revlog = [
      // Learning steps on one day: Again, then Good a minute and ten minutes later.
      entry(T0, 1, 0, 0),
      entry(T0 + 60_000, 3, 0, 0),
      entry(T0 + 660_000, 3, 0, 2500),
      // Reviews days apart, a lapse relearned the same day, and 40 days skipped.
      entry(T0 + 1 * DAY, 3, 1),
      entry(T0 + 4 * DAY, 1, 1),
      entry(T0 + 4 * DAY + 600_000, 3, 2),
      entry(T0 + 44 * DAY, 3, 1),
      // A filtered deck: a preview (no ease factor) and a review that rescheduled.
      entry(T0 + 45 * DAY, 4, 3, 0),
      entry(T0 + 60 * DAY, 3, 3),
      // "Set due date", then "Forget" and the card learned again.
      entry(T0 + 61 * DAY, 0, 4),
      entry(T0 + 70 * DAY, 3, 1),
      entry(T0 + 71 * DAY, 0, 4, 0),
      entry(T0 + 72 * DAY, 1, 0, 0),
      entry(T0 + 72 * DAY + 60_000, 3, 0, 2500),
      entry(T0 + 75 * DAY, 3, 1),
    ];
    const items = expectFsrsTakes(importedReviews(card, revlog, 0));
    // Since the Forget: learned on one day, reviewed three days later: one item, its steps 0 days apart.
    expect(items.map(({ item }) => item.reviews.map((r) => [r.rating, r.deltaT]))).toEqual([
      [
        [1, 0],
        [3, 0],
        [3, 3],
      ],
    ]);
  });

  it('the review logs of every package Anki wrote fit without a panic', async () => {
    for (const path of ankiWrittenPackages()) {
      const reader = await openPackage(path);
      const reviews: LoggedReview[] = [];
      try {
        for (const batch of reader.bundles())
          for (const bundle of batch)
            for (const { card, revlog } of bundle.cards) reviews.push(...importedReviews(card, revlog, reader.created));
      } finally {
        reader.close();
      }
      expectFsrsTakes(reviews);
    }
  });
});
