// Spreading the work (issue 28): within the days fuzz allows, a review goes to the least loaded day, and away from
// the days of the week the learner made lighter. The due forecast on the dashboard shows it.
import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS } from '@engram/contracts/learning';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from '../harness.js';

let cards: CardsHarness;
beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

const CARDS = 42;

/**
 * A learner in Lisbon with `CARDS` cards in review that all last saw the learner 8 days ago with the same memory,
 * all due now; each is rated Good, one after the other, and the forecast is read.
 */
async function reviewAll(name: string, spreading: { easyDays?: number[]; loadBalance: boolean }) {
  const user = `${name}-${randomUUID().slice(0, 8)}`;
  const learner = cards.as(user);
  await learner.updateSettings({
    fields: ['timezone', 'load_balance', ...(spreading.easyDays ? ['easy_days'] : [])],
    settings: { timezone: 'Europe/Lisbon', ...spreading },
  });
  await learner.createCards({ cards: Array.from({ length: CARDS }, (_, n) => ({ front: `Q${n}`, back: 'A' })) });
  await cards.pool.query(
    `UPDATE review_items SET state = 2, stability = 8, difficulty = 5, reps = 3, scheduled_days = 8,
       last_review = now() - interval '8 days', due = now() - interval '1 minute'
     WHERE owner_id = $1`,
    [user],
  );
  for (const item of (await learner.listDue()).items) {
    await learner.review({ id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 });
  }
  const { forecast } = await learner.reviewMetrics({});
  return forecast.filter(({ count }) => count > 0);
}

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay();

describe('spreading reviews within fuzz', () => {
  it('sends each review to the least loaded of the days fuzz allows', async () => {
    const days = await reviewAll('balanced', { loadBalance: true });
    // The fuzz range of these cards' interval is a week: every weekday is a candidate in the tests below.
    expect(days).toHaveLength(7);
    const counts = days.map(({ count }) => count);
    expect(counts.reduce((sum, count) => sum + count, 0)).toBe(CARDS);
    // The same interval for every card: the days of its fuzz range share them evenly.
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });

  it('keeps reviews off a day off, and gives a lighter day fewer of them', async () => {
    // Monday first: Saturday at half a usual day, Sunday off.
    const days = await reviewAll('weekend', { loadBalance: true, easyDays: [1, 1, 1, 1, 1, 0.5, 0] });
    expect(days.filter(({ date }) => weekday(date) === 0)).toEqual([]);
    expect(days.reduce((sum, { count }) => sum + count, 0)).toBe(CARDS);
    const saturday = days.find(({ date }) => weekday(date) === 6);
    const usual = days.filter(({ date }) => weekday(date) !== 6).map(({ count }) => count);
    expect(usual).toHaveLength(5);
    expect(saturday?.count).toBeGreaterThan(0);
    expect(saturday?.count).toBeLessThanOrEqual(Math.ceil(Math.min(...usual) / 2) + 1);
  });

  it('keeps a day off free even without load balancing, and fuzz as it drew on the other days', async () => {
    const days = await reviewAll('sundays', { loadBalance: false, easyDays: [1, 1, 1, 1, 1, 1, 0] });
    expect(days.filter(({ date }) => weekday(date) === 0)).toEqual([]);
    expect(days.reduce((sum, { count }) => sum + count, 0)).toBe(CARDS);
    // Off the day off, each review keeps the day fuzz drew for it: they do not all gather on one day.
    expect(days.length).toBeGreaterThan(2);
  });
});

describe('the spreading settings', () => {
  it('start with load balancing on and every day usual, and refuse what they cannot be', async () => {
    const learner = cards.as(`spread-settings-${randomUUID().slice(0, 8)}`);
    const { easyDays, loadBalance } = await learner.getSettings();
    expect({ easyDays, loadBalance }).toEqual({ easyDays: DEFAULT_SETTINGS.easyDays, loadBalance: true });
    const short = await grpcFailure(learner.updateSettings({ fields: ['easy_days'], settings: { easyDays: [1, 1] } }));
    expect([short.code, short.message]).toEqual([
      status.INVALID_ARGUMENT,
      'Easy days are seven numbers, Monday first.',
    ]);
    const over = await grpcFailure(
      learner.updateSettings({ fields: ['easy_days'], settings: { easyDays: [1, 1, 1, 1, 1, 1, 2] } }),
    );
    expect([over.code, over.message]).toEqual([status.INVALID_ARGUMENT, 'Each easy day is a share from 0 to 1.']);
    const saved = await learner.updateSettings({
      fields: ['easy_days', 'load_balance'],
      settings: { easyDays: [1, 1, 1, 1, 1, 0.5, 0], loadBalance: false },
    });
    expect({ easyDays: saved.easyDays, loadBalance: saved.loadBalance }).toEqual({
      easyDays: [1, 1, 1, 1, 1, 0.5, 0],
      loadBalance: false,
    });
  });
});
