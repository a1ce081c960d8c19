// The dashboard's numbers, computed in SQL in the learner's own days (their timezone and day start).
import { randomUUID } from 'node:crypto';
import { addDays, studyDayAround, studyDayOf, studyDayStart } from '@engram/contracts/study-day';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recountReviewDays } from '../../src/learner/study-days.js';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

const TZ = 'America/Sao_Paulo';
const HOUR = 3_600_000;

async function learnerInSaoPaulo(name: string) {
  const user = `${name}-${randomUUID().slice(0, 8)}`;
  const learner = cards.as(user);
  await learner.updateSettings({ fields: ['timezone'], settings: { timezone: TZ } });
  const { card } = await learner.createCard({ front: `Q ${name}`, back: 'A' });
  const item = await cards.db.reviewItem.findFirstOrThrow({ where: { cardId: card!.id } });
  /** A past review at `hoursIntoDay` after the start of the learner's `day`. */
  const reviewedOn = async (day: string, rating: number, hoursIntoDay = 8, stateBefore = 2) => {
    const at = new Date(studyDayStart(day, TZ, 4).getTime() + hoursIntoDay * HOUR);
    await cards.pool.query(
      `INSERT INTO review_logs (id, owner_id, item_id, card_id, rating, state_before, state_after, reviewed_at,
         duration_ms, elapsed_days, last_elapsed_days, scheduled_days, learning_step, due_after, previous, after)
       VALUES ($1, $2, $3, $4, $5, $6, 2, $7, 1000, 1, 1, 1, 0, $7, '{}', '{}')`,
      [randomUUID(), user, item.id, card!.id, rating, stateBefore, at],
    );
    // The service counts a review into its day as it records it; a review written in the past is
    // counted the way a change of timezone recounts them, from the logs.
    const client = await cards.pool.connect();
    try {
      await recountReviewDays(client, user);
    } finally {
      client.release();
    }
  };
  return { user, learner, card: card!, item, reviewedOn };
}

const today = () => studyDayAround(new Date(), TZ, 4).today;

describe('the streak', () => {
  it('counts the days in a row up to today, and the longest run ever', async () => {
    const { learner, reviewedOn } = await learnerInSaoPaulo('streak');
    for (const back of [0, 1, 2]) await reviewedOn(addDays(today(), -back), 3);
    for (const back of [10, 11, 12, 13, 14]) await reviewedOn(addDays(today(), -back), 3);
    expect(await learner.streak()).toEqual({ current: 3, longest: 5, reviewedToday: true });
  });

  it('stays alive through today until the day ends without a review', async () => {
    const { learner, reviewedOn } = await learnerInSaoPaulo('yesterday');
    await reviewedOn(addDays(today(), -1), 3);
    await reviewedOn(addDays(today(), -2), 3);
    expect(await learner.streak()).toEqual({ current: 2, longest: 2, reviewedToday: false });
  });

  it('is broken by a day without reviews', async () => {
    const { learner, reviewedOn } = await learnerInSaoPaulo('broken');
    await reviewedOn(addDays(today(), -2), 3);
    expect(await learner.streak()).toEqual({ current: 0, longest: 1, reviewedToday: false });
  });

  it('counts a review at 3 am for the day before (the day starts at 4)', async () => {
    const { learner, reviewedOn } = await learnerInSaoPaulo('night-owl');
    // 23 hours after yesterday's start is 03:00 today on the clock: still yesterday for the learner.
    await reviewedOn(addDays(today(), -1), 3, 23);
    expect(await learner.streak()).toEqual({ current: 1, longest: 1, reviewedToday: false });
  });

  it('moves reviews into the learner’s new days when their day start changes', async () => {
    const { learner, reviewedOn } = await learnerInSaoPaulo('early-riser');
    // 03:00 on today's clock: yesterday while the day starts at 4, today once it starts at 2.
    await reviewedOn(addDays(today(), -1), 3, 23);
    expect((await learner.streak()).reviewedToday).toBe(false);
    expect((await learner.reviewMetrics({ days: 0 })).heatmap).toEqual([{ date: addDays(today(), -1), count: 1 }]);
    await learner.updateSettings({ fields: ['day_start_hour'], settings: { dayStartHour: 2 } });
    const reviewedAt = new Date(studyDayStart(addDays(today(), -1), TZ, 4).getTime() + 23 * HOUR);
    const dayOfReview = studyDayOf(reviewedAt, TZ, 2);
    expect(dayOfReview).toBe(addDays(today(), 0));
    expect((await learner.streak()).reviewedToday).toBe(dayOfReview === studyDayAround(new Date(), TZ, 2).today);
    expect((await learner.reviewMetrics({ days: 0 })).heatmap).toEqual([{ date: dayOfReview, count: 1 }]);
  });

  it('counts a review as it is recorded and takes it back when it is undone', async () => {
    const { learner, item } = await learnerInSaoPaulo('undoer');
    const reviewId = randomUUID();
    await learner.review({ id: item.id, rating: 'hard', reviewId, durationMs: 1 });
    const todayOf = async () => (await learner.reviewMetrics({ days: 1 })).days.at(-1);
    expect(await todayOf()).toEqual({ date: today(), reviews: 1, again: 0, hard: 1, good: 0, easy: 0 });
    expect(await learner.streak()).toEqual({ current: 1, longest: 1, reviewedToday: true });
    await learner.undoReview({ reviewId });
    expect(await todayOf()).toEqual({ date: today(), reviews: 0, again: 0, hard: 0, good: 0, easy: 0 });
    expect(await learner.streak()).toEqual({ current: 0, longest: 0, reviewedToday: false });
  });

  it('starts at zero for a learner who never reviewed', async () => {
    expect(await cards.as(`nobody-${randomUUID()}`).streak()).toEqual({ current: 0, longest: 0, reviewedToday: false });
  });
});

describe('review metrics', () => {
  it('gives every one of the last 30 days with its reviews by rating, and the true retention', async () => {
    const { learner, reviewedOn } = await learnerInSaoPaulo('metrics');
    const yesterday = addDays(today(), -1);
    await reviewedOn(yesterday, 1);
    await reviewedOn(yesterday, 3);
    await reviewedOn(yesterday, 4);
    await reviewedOn(today(), 2);
    await reviewedOn(today(), 3, 1, 0); // a new card's first review: not part of the retention
    await reviewedOn(addDays(today(), -40), 3); // outside the 30 days, inside the heatmap
    const metrics = await learner.reviewMetrics();
    expect(metrics.days).toHaveLength(30);
    expect(metrics.days.at(-1)).toEqual({ date: today(), reviews: 2, again: 0, hard: 1, good: 1, easy: 0 });
    expect(metrics.days.at(-2)).toEqual({ date: yesterday, reviews: 3, again: 1, hard: 0, good: 1, easy: 1 });
    expect(metrics.days[0]).toEqual({ date: addDays(today(), -29), reviews: 0, again: 0, hard: 0, good: 0, easy: 0 });
    // Mature reviews: 4 of which 1 was "again".
    expect(metrics.retention).toBeCloseTo(3 / 4);
    expect(metrics.heatmap).toEqual([
      { date: addDays(today(), -40), count: 1 },
      { date: yesterday, count: 3 },
      { date: today(), count: 2 },
    ]);
  });

  it('forecasts the next 30 days of due items, with overdue ones today', async () => {
    const { learner, item, card } = await learnerInSaoPaulo('forecast');
    const { card: second } = await learner.createCard({ front: 'later', back: 'x' });
    const soon = new Date(studyDayStart(addDays(today(), 3), TZ, 4).getTime() + 2 * HOUR);
    await cards.db.reviewItem.update({
      where: { id: item.id },
      data: { state: 2, due: new Date(Date.now() - 48 * HOUR) },
    });
    await cards.db.reviewItem.updateMany({ where: { cardId: second!.id }, data: { state: 2, due: soon } });
    const { forecast } = await learner.reviewMetrics();
    expect(forecast).toHaveLength(30);
    expect(forecast[0]).toEqual({ date: today(), count: 1 });
    expect(forecast[3]).toEqual({ date: addDays(today(), 3), count: 1 });
    expect(forecast.reduce((sum, day) => sum + day.count, 0)).toBe(2);
    expect(card.id).toBeTruthy();
  });

  it('answers -1 retention when there were no mature reviews', async () => {
    expect((await cards.as(`fresh-${randomUUID()}`).reviewMetrics()).retention).toBe(-1);
  });
});

describe('true retention by week', () => {
  /** The Sunday that starts the week of `day`. */
  const sundayOf = (day: string) => addDays(day, -new Date(`${day}T00:00:00Z`).getUTCDay());
  /** The day `weekday` (0 Sunday … 6 Saturday) of the week `weeks` before this one. */
  const weeksAgo = (weeks: number, weekday: number) => addDays(sundayOf(today()), weekday - 7 * weeks);
  const withReviews = (weeks: { start: string; mature: number }[]) => weeks.filter((week) => week.mature > 0);

  it('gives each of the last 26 weeks, Sunday to Saturday, its reviews of mature cards and how many were recalled', async () => {
    const { learner, reviewedOn } = await learnerInSaoPaulo('weekly');
    await reviewedOn(weeksAgo(10, 1), 3);
    await reviewedOn(weeksAgo(10, 3), 4);
    await reviewedOn(weeksAgo(3, 0), 3);
    await reviewedOn(weeksAgo(3, 6), 1);
    await reviewedOn(weeksAgo(2, 0), 4); // the Sunday after: the next week
    await reviewedOn(today(), 3);
    await reviewedOn(weeksAgo(30, 2), 3); // before the 26 weeks
    const { retentionWeeks } = await learner.reviewMetrics();
    expect(retentionWeeks).toHaveLength(26);
    expect(retentionWeeks.at(-1)?.start).toBe(sundayOf(today()));
    expect(retentionWeeks[0]?.start).toBe(weeksAgo(25, 0));
    expect(retentionWeeks.every((week, index) => week.start === weeksAgo(25 - index, 0))).toBe(true);
    expect(withReviews(retentionWeeks)).toEqual([
      { start: weeksAgo(10, 0), mature: 2, recalled: 2 },
      { start: weeksAgo(3, 0), mature: 2, recalled: 1 },
      { start: weeksAgo(2, 0), mature: 1, recalled: 1 },
      { start: sundayOf(today()), mature: 1, recalled: 1 },
    ]);
    // The weeks between are there, with nothing in them (a gap in the chart, not 0%).
    expect(retentionWeeks.find((week) => week.start === weeksAgo(5, 0))).toEqual({
      start: weeksAgo(5, 0),
      mature: 0,
      recalled: 0,
    });
  });

  it('is lowered by an again on a card in review, and leaves out reviews of cards being learned or relearned', async () => {
    const { learner, reviewedOn } = await learnerInSaoPaulo('forgetful');
    await reviewedOn(weeksAgo(1, 2), 3);
    await reviewedOn(weeksAgo(1, 2), 3);
    await reviewedOn(weeksAgo(1, 3), 1);
    await reviewedOn(weeksAgo(1, 3), 2);
    await reviewedOn(weeksAgo(1, 4), 1, 8, 1); // learning
    await reviewedOn(weeksAgo(1, 4), 3, 8, 3); // relearning
    await reviewedOn(weeksAgo(1, 4), 3, 8, 0); // a new card's first review
    await reviewedOn(weeksAgo(4, 1), 1);
    expect(withReviews((await learner.reviewMetrics()).retentionWeeks)).toEqual([
      { start: weeksAgo(4, 0), mature: 1, recalled: 0 },
      { start: weeksAgo(1, 0), mature: 4, recalled: 3 },
    ]);
  });

  it('counts only the caller’s reviews', async () => {
    const mine = await learnerInSaoPaulo('mine');
    const theirs = await learnerInSaoPaulo('theirs');
    await mine.reviewedOn(weeksAgo(2, 3), 3);
    await theirs.reviewedOn(weeksAgo(2, 3), 1);
    await theirs.reviewedOn(weeksAgo(6, 3), 3);
    expect(withReviews((await mine.learner.reviewMetrics()).retentionWeeks)).toEqual([
      { start: weeksAgo(2, 0), mature: 1, recalled: 1 },
    ]);
    expect(withReviews((await theirs.learner.reviewMetrics()).retentionWeeks)).toEqual([
      { start: weeksAgo(6, 0), mature: 1, recalled: 1 },
      { start: weeksAgo(2, 0), mature: 1, recalled: 0 },
    ]);
  });

  it('shows a history from years ago: every month of it, and a chosen year by day', async () => {
    // As a learner who imported their Anki reviews of 2023 sees them: nothing in the last 30 days or year.
    const { learner, reviewedOn } = await learnerInSaoPaulo('veteran');
    await reviewedOn('2023-03-14', 3);
    await reviewedOn('2023-03-14', 1, 9);
    await reviewedOn('2023-11-02', 4);
    await reviewedOn('2024-01-05', 3);
    const recent = await learner.reviewMetrics();
    expect(recent.heatmap).toEqual([]);
    expect(recent.months).toEqual([
      { month: '2023-03', reviews: 2 },
      { month: '2023-11', reviews: 1 },
      { month: '2024-01', reviews: 1 },
    ]);
    expect(recent.yearDays).toEqual([]);
    expect((await learner.reviewMetrics({ year: 2023 })).yearDays).toEqual([
      { date: '2023-03-14', count: 2 },
      { date: '2023-11-02', count: 1 },
    ]);
  });

  it('comes with the learner’s desired retention, and empty weeks before any mature review', async () => {
    const fresh = await cards.as(`weekly-fresh-${randomUUID()}`).reviewMetrics();
    expect(fresh.desiredRetention).toBeCloseTo(0.9);
    expect(fresh.retentionWeeks).toHaveLength(26);
    expect(withReviews(fresh.retentionWeeks)).toEqual([]);
    const { learner } = await learnerInSaoPaulo('ambitious');
    await learner.updateSettings({ fields: ['desired_retention'], settings: { desiredRetention: 0.95 } });
    expect((await learner.reviewMetrics()).desiredRetention).toBeCloseTo(0.95);
  });
});

describe('progress', () => {
  it('counts cards, items by state, what is due today and what was reviewed today', async () => {
    const { learner, item } = await learnerInSaoPaulo('progress');
    // The review below brings its item back in 10 minutes: the learner's day starts 12 hours from now,
    // so those minutes stay in today whenever the test runs.
    const hourNow = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: TZ, hour: 'numeric', hourCycle: 'h23' }).format(new Date()),
    );
    await learner.updateSettings({ fields: ['day_start_hour'], settings: { dayStartHour: (hourNow + 12) % 24 } });
    await learner.createCard({ front: 'dog', back: 'Hund', type: 'reversed' });
    const { card: archived } = await learner.createCard({ front: 'gone', back: 'x' });
    await learner.archiveCard({ id: archived!.id, archived: true });
    await learner.review({ id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1 });
    expect(await learner.progressMetrics()).toEqual({
      total: 2,
      archived: 1,
      new: 2,
      learning: 1,
      review: 0,
      relearning: 0,
      dueToday: 3,
      reviewedToday: 1,
      dailyGoal: 20,
    });
  });
});
