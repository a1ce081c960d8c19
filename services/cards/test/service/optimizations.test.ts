// Optimizing a preset as a learner asks for it: a background job fits the learner's own FSRS-6 parameters to
// their review log, adopts them only when they predict the learner's later reviews better, and shows the
// figures; below the minimum the defaults stay; a replica that dies mid-fit leaves the job to another; and every
// OPTIMIZE_EVERY_REVIEWS new reviews (5 in the harness) one is queued by itself.
import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { DEFAULT_PARAMETERS } from '@engram/contracts/scheduler';
import { RECOMMENDATION_MIN_CARDS } from '@engram/contracts/scheduling';
import { grpcFailure } from '@engram/testkit/grpc';
import { BACKGROUND_JOB_WAIT_MS, waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoggedReview } from '../../src/optimizer/history.ts';
import { FORGETFUL_PARAMETERS, syntheticLearner } from '../../src/optimizer/synthetic-learner.ts';
import { learnerWorkload } from '../../src/simulator/learner-workload.ts';
import { countPackedCards, unpackCards } from '../../src/simulator/packed-cards.ts';
import { type CardsHarness, startCardsHarness, writeReviewLog } from '../harness.js';

let cards: CardsHarness;
beforeAll(async () => {
  // With its events, as main.ts runs it: its own ReviewRecorded count toward automatic optimizations.
  cards = await startCardsHarness({ events: {} });
  await cards.events?.ready;
});
afterAll(() => cards?.stop());

const TOKYO = { timeZone: 'Asia/Tokyo', dayStartHour: 4 };

const learnerId = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** A learner in Tokyo with `days` days of reviews in their log (of cards they have since deleted). */
async function learnerWithHistory(name: string, days: number): Promise<string> {
  const user = learnerId(name);
  await cards.as(user).updateSettings({ fields: ['timezone'], settings: { timezone: TOKYO.timeZone } });
  const reviews = syntheticLearner({
    parameters: FORGETFUL_PARAMETERS,
    firstDay: '2025-11-01',
    days,
    newPerDay: 10,
    ...TOKYO,
    seed: 11,
  });
  await writeLog(user, reviews);
  return user;
}

const writeLog = (user: string, reviews: LoggedReview[]) => writeReviewLog(cards.pool, user, reviews);

async function finished(user: string, jobId: string) {
  let current = await cards.as(user).getOptimization({ jobId });
  await waitUntil(
    'the optimization finished',
    async () => {
      current = await cards.as(user).getOptimization({ jobId });
      return current.status === 'done' || current.status === 'failed';
    },
    BACKGROUND_JOB_WAIT_MS,
  );
  return current;
}

const defaultPreset = async (user: string) => (await cards.as(user).getSettings()).presets[0];

describe('optimizing the default preset', () => {
  it('fits a year of the learner’s reviews in their days, adopts the parameters and shows the figures', async () => {
    const user = await learnerWithHistory('tokyo', 365);
    const { jobId } = await cards.as(user).optimize({});
    const done = await finished(user, jobId);
    expect(done).toMatchObject({ status: 'done', outcome: 'adopted' });
    expect(done.reviews).toBeGreaterThan(30_000);
    const evaluation = done.evaluation;
    expect(evaluation?.logLossAfter).toBeLessThan(evaluation?.logLossBefore ?? 0);
    expect(evaluation?.rmseAfter).toBeLessThan(evaluation?.rmseBefore ?? 0);
    expect((evaluation?.reviews ?? 0) + (evaluation?.trainedOn ?? 0)).toBe(done.reviews);

    const preset = await defaultPreset(user);
    expect(preset).toMatchObject({ isDefault: true, name: 'Default', id: done.presetId });
    expect(preset?.optimizedAt).toBeInstanceOf(Date);
    expect(preset?.evaluation).toEqual(evaluation);
    // The learner forgets faster than the defaults expect: their first stability after "good" is lower.
    expect(preset?.parameters).toHaveLength(21);
    expect(preset?.parameters[2]).toBeLessThan((DEFAULT_PARAMETERS[2] as number) * 0.6);
  });

  it('keeps the defaults below 400 reviews and says how many it had and needs', async () => {
    const user = await learnerWithHistory('new', 4);
    const { jobId } = await cards.as(user).optimize({});
    const done = await finished(user, jobId);
    expect(done).toMatchObject({ status: 'done', outcome: 'too-few-reviews', needed: 400 });
    expect(done.reviews).toBeGreaterThan(0);
    expect(done.reviews).toBeLessThan(400);
    expect(done.evaluation).toBeUndefined();
    const preset = await defaultPreset(user);
    expect(preset?.parameters).toEqual([...DEFAULT_PARAMETERS]);
    expect(preset?.optimizedAt).toBeUndefined();
  });

  it('leaves out the reviews of deleted cards when the learner asks', async () => {
    const user = await learnerWithHistory('tidy', 60);
    const { jobId } = await cards.as(user).optimize({ excludeDeletedCards: true });
    expect(await finished(user, jobId)).toMatchObject({ outcome: 'too-few-reviews', reviews: 0 });
  });

  it('does not learn from previews in Anki’s filtered decks, as Anki’s own optimizer does not', async () => {
    const user = await learnerWithHistory('previewer', 60);
    await cards.pool.query('UPDATE review_logs SET preview = true WHERE owner_id = $1', [user]);
    const { jobId } = await cards.as(user).optimize({});
    expect(await finished(user, jobId)).toMatchObject({ outcome: 'too-few-reviews', reviews: 0 });
  });

  it('fails without changing the preset when the fit cannot run, and can be asked for again', async () => {
    const user = await learnerWithHistory('broken', 120);
    // Parameters no fit can start from (21 are needed): the evaluation of the ones in use throws.
    await cards.pool.query('UPDATE presets SET parameters = $2 WHERE owner_id = $1', [user, [1, 2, 3]]);
    const { jobId } = await cards.as(user).optimize({});
    const failed = await finished(user, jobId);
    expect(failed).toMatchObject({ status: 'failed', outcome: '' });
    expect(failed.finishedAt).toBeInstanceOf(Date);
    const preset = await cards.db.preset.findFirstOrThrow({ where: { ownerId: user } });
    expect({ parameters: preset.parameters, optimizedAt: preset.optimizedAt, evaluation: preset.evaluation }).toEqual({
      parameters: [1, 2, 3],
      optimizedAt: null,
      evaluation: null,
    });
    // A failed optimization is not one under way: asking again queues a new one.
    const again = await cards.as(user).optimize({});
    expect(again.jobId).not.toBe(jobId);
    await finished(user, again.jobId);
  });

  it('answers the optimization already under way when asked again', async () => {
    const user = learnerId('eager');
    const preset = (await cards.db.preset.create({
      data: {
        ownerId: user,
        name: 'Default',
        isDefault: true,
        desiredRetention: 0.9,
        newPerDay: 20,
        reviewsPerDay: 200,
      },
    })) as { id: string };
    // A replica holds it (a fresh heartbeat), so it stays running while the learner asks again.
    const running = await cards.db.optimization.create({
      data: { ownerId: user, presetId: preset.id, status: 'running', attempts: 1, heartbeatAt: new Date() },
    });
    expect(await cards.as(user).optimize({})).toEqual({ jobId: running.id });
    expect(await cards.as(user).optimize({ presetId: preset.id })).toEqual({ jobId: running.id });
    // That replica finishes (it would otherwise be offered to this harness's worker until its heartbeat aged).
    await cards.db.optimization.update({ where: { id: running.id }, data: { status: 'failed' } });
  });

  it('is taken over when the replica running it died (its heartbeat went stale)', async () => {
    const user = await learnerWithHistory('orphan', 120);
    const { id: presetId } = (await cards.db.preset.findFirstOrThrow({ where: { ownerId: user } })) as { id: string };
    const abandoned = await cards.db.optimization.create({
      data: { ownerId: user, presetId, status: 'running', attempts: 1, heartbeatAt: new Date(Date.now() - 600_000) },
    });
    const done = await finished(user, abandoned.id);
    expect(done.status).toBe('done');
    expect(done.outcome).not.toBe('');
    expect((await cards.db.optimization.findUniqueOrThrow({ where: { id: abandoned.id } })).attempts).toBe(2);
  });

  it('shows a learner who never saved settings their default preset, with the defaults', async () => {
    const settings = await cards.as(learnerId('fresh')).getSettings();
    expect(settings).toEqual({
      ...DEFAULT_SETTINGS,
      presets: [
        {
          id: '',
          name: 'Default',
          isDefault: true,
          tagIds: [],
          desiredRetention: 0.9,
          parameters: [...DEFAULT_PARAMETERS],
          optimizedAt: undefined,
          evaluation: undefined,
          newPerDay: 20,
          reviewsPerDay: 200,
        },
      ],
    });
  });
});

describe('automatic optimization', () => {
  it('queues one after every OPTIMIZE_EVERY_REVIEWS new reviews, which runs in the background', async () => {
    const user = learnerId('steady');
    const learner = cards.as(user);
    await learner.createCards({ cards: Array.from({ length: 9 }, (_, i) => ({ front: `Q${i}`, back: 'A' })) });
    const { items } = await learner.listDue();
    const reviewNext = async () => {
      const item = items.shift();
      await learner.review({ id: item?.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 });
    };
    const counted = async () =>
      (await cards.db.preset.findFirst({ where: { ownerId: user, isDefault: true } }))?.reviewsSinceOptimized ?? 0;
    for (let n = 0; n < 4; n += 1) await reviewNext();
    await waitUntil('four reviews counted', async () => (await counted()) === 4);
    expect(await cards.db.optimization.count({ where: { ownerId: user } })).toBe(0);

    await reviewNext();
    let optimizations: { status: string; outcome: string | null }[] = [];
    await waitUntil(
      'the optimization ran',
      async () => {
        optimizations = await cards.db.optimization.findMany({ where: { ownerId: user } });
        return optimizations.length === 1 && optimizations[0]?.status === 'done';
      },
      BACKGROUND_JOB_WAIT_MS,
    );
    // Five first reviews are nothing to learn from yet: the defaults stay.
    expect(optimizations[0]?.outcome).toBe('too-few-reviews');
    expect(await counted()).toBe(0);
    for (let n = 0; n < 4; n += 1) await reviewNext();
    await waitUntil('four more reviews counted', async () => (await counted()) === 4);
    expect(await cards.db.optimization.count({ where: { ownerId: user } })).toBe(1);
  });
});

describe('simulating the workload of a learner’s own cards', () => {
  it('shows each day’s reviews and minutes and the cards remembered, for each desired retention', async () => {
    const user = learnerId('planner');
    const learner = cards.as(user);
    await learner.updateSettings({ fields: ['timezone'], settings: { timezone: TOKYO.timeZone } });
    await learner.createCards({ cards: Array.from({ length: 60 }, (_, i) => ({ front: `Q${i}`, back: 'A' })) });
    const { items } = await learner.listDue();
    for (const item of items.slice(0, 30))
      await learner.review({ id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 6000 });
    const { runs } = await learner.simulate({ desiredRetentions: [0.8, 0.9, 0.95], days: 90 });
    expect(runs.map((run) => run.desiredRetention)).toEqual([0.8, 0.9, 0.95]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: TOKYO.timeZone }).format(
      new Date(Date.now() - TOKYO.dayStartHour * 3_600_000),
    );
    for (const run of runs) {
      expect(run.daily).toHaveLength(90);
      expect(run.daily[0]?.date).toBe(today);
      // The 30 cards never seen are learned at 20 a day: the first day holds 20 of them.
      expect(run.daily[0]?.reviews).toBeGreaterThanOrEqual(20);
      expect(run.remembered).toBeGreaterThan(0);
      expect(run.remembered).toBeLessThanOrEqual(60);
    }
    const minutes = runs.map((run) => run.totalMinutes);
    expect(minutes[0]).toBeLessThan(minutes[2] ?? 0);
    // The same question, the same simulated future.
    expect((await learner.simulate({ desiredRetentions: [0.9], days: 90 })).runs[0]).toEqual(runs[1]);
  });

  it('starts from the learner’s cards as their memories stand, the new ones apart', async () => {
    const user = learnerId('as-they-stand');
    const learner = cards.as(user);
    await learner.createCards({ cards: Array.from({ length: 12 }, (_, i) => ({ front: `Q${i}`, back: 'A' })) });
    const { items } = await learner.listDue();
    for (const item of items.slice(0, 5))
      await learner.review({ id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 4000 });
    const workload = await learnerWorkload({ db: cards.db, pool: cards.pool }, user, undefined);
    const simulated = unpackCards(workload.input.cards);
    const reviewed = await cards.db.reviewItem.findMany({ where: { ownerId: user, state: { not: 0 } } });
    expect(simulated).toHaveLength(12);
    expect(countPackedCards(workload.input.cards)).toBe(12);
    expect(countPackedCards('')).toBe(0);
    expect(simulated.filter((card) => card.isNew)).toHaveLength(7);
    const memories = simulated.flatMap((card) => (card.isNew ? [] : [card]));
    // Each reviewed card's memory, to the last digit, reviewed today and due on a later day.
    expect(memories.map((card) => card.stability).sort()).toEqual(reviewed.map((item) => item.stability).sort());
    expect(memories.map((card) => card.difficulty).sort()).toEqual(reviewed.map((item) => item.difficulty).sort());
    for (const card of memories) {
      expect(card.lastDay).toBe(0);
      expect(card.dueDay).toBeGreaterThan(0);
    }
  });

  it('recommends the retention with the most remembered per minute, with its reason', async () => {
    const learner = cards.as(learnerId('advice'));
    const count = RECOMMENDATION_MIN_CARDS + 20;
    await learner.createCards({ cards: Array.from({ length: count }, (_, i) => ({ front: `Q${i}`, back: 'A' })) });
    const advice = await learner.recommendRetention({});
    expect(advice.desiredRetention).toBeGreaterThanOrEqual(0.8);
    expect(advice.desiredRetention).toBeLessThanOrEqual(0.95);
    expect(advice.currentRetention).toBe(0.9);
    expect(advice.rememberedPerMinute).toBeGreaterThanOrEqual(advice.currentPerMinute);
    expect(advice.reason).toMatch(/^At \d+% you /);
    expect(advice).toMatchObject({ cardCount: count, cardsNeeded: RECOMMENDATION_MIN_CARDS });
  });

  it('recommends nothing for a collection too small to tell the retentions apart, and says so', async () => {
    const learner = cards.as(learnerId('newcomer'));
    await learner.createCards({ cards: Array.from({ length: 20 }, (_, i) => ({ front: `Q${i}`, back: 'A' })) });
    const advice = await learner.recommendRetention({});
    expect(advice).toEqual({
      desiredRetention: 0.9,
      currentRetention: 0.9,
      rememberedPerMinute: 0,
      currentPerMinute: 0,
      cardCount: 20,
      cardsNeeded: RECOMMENDATION_MIN_CARDS,
      reason: `Too few cards to recommend a retention: 20 of the ${RECOMMENDATION_MIN_CARDS} it needs.`,
    });
  });

  it('refuses what it cannot simulate, with the reason', async () => {
    const learner = cards.as(learnerId('odd'));
    const cases: [Record<string, unknown>, string][] = [
      [{ desiredRetentions: [0.5], days: 30 }, 'Desired retention must be between 0.70 and 0.99.'],
      [{ desiredRetentions: [], days: 30 }, 'Give at least one desired retention to simulate.'],
      [{ desiredRetentions: [0.9], days: 0 }, 'Simulate from 1 to 365 days.'],
      [{ desiredRetentions: [0.8, 0.82, 0.84, 0.86, 0.88, 0.9], days: 30 }, 'At most 5 desired retentions at once.'],
    ];
    for (const [request, message] of cases) {
      const error = await grpcFailure(learner.simulate(request));
      expect(error.code).toBe(status.INVALID_ARGUMENT);
      expect(error.message).toBe(message);
    }
  });
});

describe('another learner', () => {
  it('cannot see my optimization, optimize my preset or simulate it', async () => {
    const me = learnerId('me');
    const { jobId } = await cards.as(me).optimize({});
    const { id: presetId } = (await cards.db.preset.findFirstOrThrow({ where: { ownerId: me } })) as { id: string };
    const other = cards.as(learnerId('other'));
    expect((await grpcFailure(other.getOptimization({ jobId }))).code).toBe(status.NOT_FOUND);
    expect((await grpcFailure(other.optimize({ presetId }))).code).toBe(status.NOT_FOUND);
    expect((await grpcFailure(other.getOptimization({ jobId: 'not-an-id' }))).code).toBe(status.INVALID_ARGUMENT);
    expect((await grpcFailure(other.simulate({ presetId, desiredRetentions: [0.9], days: 30 }))).code).toBe(
      status.NOT_FOUND,
    );
    expect((await grpcFailure(other.recommendRetention({ presetId }))).code).toBe(status.NOT_FOUND);
  });
});
