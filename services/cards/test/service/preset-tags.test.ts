// Presets by tag: a learner gives the cards of some tags their own desired retention, parameters and daily limits
// (like Anki's deck option presets). A card belongs to the preset of its tags (the oldest such preset when
// several), else to the default preset; reviews, the optimizer and the simulator all follow that one rule, and a
// change of options offers to reschedule the preset's cards, with a preview, never silently.
import { randomUUID } from 'node:crypto';
import { MAX_PRESETS } from '@engram/contracts/scheduling';
import { grpcFailure } from '@engram/testkit/grpc';
import { BACKGROUND_JOB_WAIT_MS, waitUntil } from '@engram/testkit/wait';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORGETFUL_PARAMETERS } from '../../src/optimizer/synthetic-learner.ts';
import { type CardsHarness, dayStartHalfADayAway, startCardsHarness } from '../harness.js';

const DAY_MS = 86_400_000;

let cards: CardsHarness;
beforeAll(async () => {
  cards = await startCardsHarness({ events: {} });
});
afterAll(() => cards?.stop());

const learnerId = (name: string) => `${name}-${randomUUID().slice(0, 8)}`;

/** A learner without fuzz (so intervals are exact) and a tag of theirs. */
async function learnerWithTag(name: string, tagName = 'Japanese') {
  const user = learnerId(name);
  const learner = cards.as(user);
  await learner.updateSettings({ fields: ['fuzz'], settings: { fuzz: false } });
  const { tag } = await learner.createTag({ name: tagName });
  return { user, learner, tagId: tag!.id };
}

type Learner = ReturnType<CardsHarness['as']>;

/** Days until a new card of these tags comes back when answered "easy" now. */
async function easyDays(learner: Learner, tagIds: string[]) {
  const { card } = await learner.createCard({ front: `Q ${randomUUID()}`, back: 'A', tagIds });
  const { items } = await learner.listDue();
  const item = items.find(({ cardId }) => cardId === card?.id);
  const before = Date.now();
  const { item: reviewed } = await learner.review({
    id: item?.id,
    rating: 'easy',
    reviewId: randomUUID(),
    durationMs: 1000,
  });
  return Math.round(((reviewed?.due?.getTime() ?? 0) - before) / DAY_MS);
}

describe('a preset for the cards of a tag', () => {
  it('schedules the cards of its tags with its own desired retention, and the rest with the default preset', async () => {
    const { learner, tagId } = await learnerWithTag('tagged');
    const relaxed = await learner.createPreset({
      fields: ['name', 'tag_ids', 'desired_retention'],
      preset: { name: 'Japanese', tagIds: [tagId], desiredRetention: 0.8 },
    });
    expect(relaxed).toEqual(
      expect.objectContaining({ name: 'Japanese', isDefault: false, tagIds: [tagId], desiredRetention: 0.8 }),
    );
    // A new preset starts with the default preset's limits.
    expect(relaxed).toEqual(expect.objectContaining({ newPerDay: 20, reviewsPerDay: 200 }));
    // Easy on a new card: 8 days at 0.90 (the default preset), longer at 0.80.
    expect(await easyDays(learner, [])).toBe(8);
    const tagged = await easyDays(learner, [tagId]);
    expect(tagged).toBeGreaterThan(12);

    const { presets } = await learner.getSettings();
    expect(presets.map(({ name, isDefault }) => [name, isDefault])).toEqual([
      ['Default', true],
      ['Japanese', false],
    ]);

    await learner.updatePreset({
      presetId: relaxed.id,
      fields: ['desired_retention'],
      preset: { desiredRetention: 0.95 },
    });
    expect(await easyDays(learner, [tagId])).toBeLessThan(8);

    // Deleted, its cards go back to the default preset.
    await learner.deletePreset({ presetId: relaxed.id });
    expect(await easyDays(learner, [tagId])).toBe(8);
    expect((await learner.getSettings()).presets).toHaveLength(1);
  });

  it('gives a card with tags in two presets the options of the preset made first', async () => {
    const { learner, tagId: verbs } = await learnerWithTag('two-presets', 'Verbs');
    const { tag: nouns } = await learner.createTag({ name: 'Nouns' });
    await learner.createPreset({
      fields: ['name', 'tag_ids', 'desired_retention'],
      preset: { name: 'First', tagIds: [verbs], desiredRetention: 0.8 },
    });
    await learner.createPreset({
      fields: ['name', 'tag_ids', 'desired_retention'],
      preset: { name: 'Second', tagIds: [nouns!.id], desiredRetention: 0.97 },
    });
    expect(await easyDays(learner, [nouns!.id, verbs])).toBe(await easyDays(learner, [verbs]));
    expect(await easyDays(learner, [nouns!.id])).toBeLessThan(8);
  });

  it('takes a tag from the preset that had it: a tag is in one preset at most', async () => {
    const { learner, tagId } = await learnerWithTag('moved');
    const first = await learner.createPreset({ fields: ['name', 'tag_ids'], preset: { name: 'A', tagIds: [tagId] } });
    const second = await learner.createPreset({ fields: ['name', 'tag_ids'], preset: { name: 'B', tagIds: [tagId] } });
    const { presets } = await learner.getSettings();
    expect(presets.find(({ id }) => id === first.id)?.tagIds).toEqual([]);
    expect(presets.find(({ id }) => id === second.id)?.tagIds).toEqual([tagId]);
    const emptied = await learner.updatePreset({ presetId: second.id, fields: ['tag_ids'], preset: { tagIds: [] } });
    expect(emptied.tagIds).toEqual([]);
  });

  it('counts a review toward its card’s preset for the next automatic optimization', async () => {
    const { user, learner, tagId } = await learnerWithTag('counted');
    const preset = await learner.createPreset({
      fields: ['name', 'tag_ids'],
      preset: { name: 'Tagged', tagIds: [tagId] },
    });
    await easyDays(learner, [tagId]);
    await easyDays(learner, [tagId]);
    await easyDays(learner, []);
    const counted = async (id: string) =>
      (await cards.db.preset.findUnique({ where: { id } }))?.reviewsSinceOptimized ?? 0;
    await waitUntil('the tagged reviews counted', async () => (await counted(preset.id)) === 2);
    const defaultPreset = (await learner.getSettings()).presets[0];
    await waitUntil('the other review counted', async () => (await counted(defaultPreset!.id)) === 1);
    // The optimizer learns from the preset's cards only: the tagged preset has two first reviews to learn from.
    const { jobId } = await learner.optimize({ presetId: preset.id });
    await waitUntil(
      'the optimization is done',
      async () => (await learner.getOptimization({ jobId })).status === 'done',
      BACKGROUND_JOB_WAIT_MS,
    );
    expect(await learner.getOptimization({ jobId })).toEqual(
      expect.objectContaining({ outcome: 'too-few-reviews', reviews: 0 }),
    );
    expect(await cards.db.optimization.count({ where: { ownerId: user } })).toBeGreaterThan(0);
  });

  it('refuses what it cannot keep, with the reason, and changes nothing', async () => {
    const { learner, tagId } = await learnerWithTag('refused');
    const failure = async (call: Promise<unknown>) => {
      const error = await grpcFailure(call);
      return [error.code, error.message];
    };
    expect(await failure(learner.createPreset({ fields: ['name'], preset: { name: '  ' } }))).toEqual([
      status.INVALID_ARGUMENT,
      'Preset name is required.',
    ]);
    expect(
      await failure(
        learner.createPreset({ fields: ['name', 'new_per_day'], preset: { name: 'Many', newPerDay: 10_000 } }),
      ),
    ).toEqual([status.INVALID_ARGUMENT, 'New cards per day must be a whole number from 0 to 9999.']);
    expect(await failure(learner.updatePreset({ fields: ['tag_ids'], preset: { tagIds: [tagId] } }))).toEqual([
      status.INVALID_ARGUMENT,
      'The default preset schedules every card no other preset takes; it has no tags.',
    ]);
    expect(await failure(learner.updatePreset({ fields: [], preset: {} }))).toEqual([
      status.INVALID_ARGUMENT,
      'Give at least one option of the preset to change.',
    ]);
    const { presets } = await learner.getSettings();
    expect(await failure(learner.deletePreset({ presetId: presets[0]?.id }))).toEqual([
      status.FAILED_PRECONDITION,
      'The default preset cannot be deleted.',
    ]);
    expect(presets).toEqual([expect.objectContaining({ isDefault: true, tagIds: [] })]);

    for (let n = 1; n < MAX_PRESETS; n += 1)
      await learner.createPreset({ fields: ['name'], preset: { name: `P${n}` } });
    expect(await failure(learner.createPreset({ fields: ['name'], preset: { name: 'One more' } }))).toEqual([
      status.FAILED_PRECONDITION,
      `A learner keeps at most ${MAX_PRESETS} presets.`,
    ]);
  });
});

describe('another learner', () => {
  it('cannot use my tags in their preset, or change, delete or reschedule my preset', async () => {
    const { learner: me, tagId } = await learnerWithTag('owner');
    const mine = await me.createPreset({ fields: ['name', 'tag_ids'], preset: { name: 'Mine', tagIds: [tagId] } });
    const other = cards.as(learnerId('other'));
    const code = async (call: Promise<unknown>) => (await grpcFailure(call)).code;
    expect(
      await code(other.createPreset({ fields: ['name', 'tag_ids'], preset: { name: 'X', tagIds: [tagId] } })),
    ).toBe(status.NOT_FOUND);
    expect(await code(other.updatePreset({ presetId: mine.id, fields: ['name'], preset: { name: 'Taken' } }))).toBe(
      status.NOT_FOUND,
    );
    expect(await code(other.deletePreset({ presetId: mine.id }))).toBe(status.NOT_FOUND);
    expect(await code(other.previewReschedule({ presetId: mine.id }))).toBe(status.NOT_FOUND);
    expect(await code(other.reschedule({ presetId: mine.id }))).toBe(status.NOT_FOUND);
    expect((await me.getSettings()).presets[1]).toEqual(mine);
  });
});

describe('rescheduling after a change of options', () => {
  it('previews how many cards fall due when, and then changes the due dates as the preview said', async () => {
    const user = learnerId('rescheduled');
    const learner = cards.as(user);
    await learner.createCards({ cards: Array.from({ length: 12 }, (_, n) => ({ front: `Q${n}`, back: 'A' })) });
    for (const [n, item] of (await learner.listDue()).items.entries()) {
      await learner.review({ id: item.id, rating: n % 2 ? 'easy' : 'good', reviewId: randomUUID(), durationMs: 1000 });
    }
    // Good on a new card is a learning step; easy graduates it: six cards are in review.
    const dueDates = async () =>
      (
        await cards.pool.query<{ due: Date }>('SELECT due FROM review_items WHERE owner_id = $1 AND state = 2', [user])
      ).rows
        .map(({ due }) => due.getTime())
        .sort();
    const before = await dueDates();
    expect(before).toHaveLength(6);

    // Nothing changed yet: the preview moves nothing.
    expect((await learner.previewReschedule({})).changed).toBe(0);

    await learner.updatePreset({ fields: ['desired_retention'], preset: { desiredRetention: 0.8 } });
    // Changing the options did not move a card by itself.
    expect(await dueDates()).toEqual(before);
    const preview = await learner.previewReschedule({});
    expect(preview.cards).toBe(6);
    expect(preview.changed).toBe(6);
    expect(preview.days).toHaveLength(31);
    const sum = (key: 'before' | 'after') => preview.days.reduce((total, day) => total + day[key], 0);
    expect([sum('before'), sum('after')]).toEqual([6, 6]);

    expect(await learner.reschedule({})).toEqual({ changed: 6 });
    const after = await dueDates();
    expect(after.every((due, n) => due > (before[n] ?? 0))).toBe(true);
    // Each due day the preview announced now holds that many cards.
    // The learner is in UTC, and their day starts at 4 am.
    const startOfToday = Date.parse(`${preview.days[0]?.date}T04:00:00Z`);
    const dayIndex = (due: number) => Math.min(30, Math.max(0, Math.floor((due - startOfToday) / DAY_MS)));
    const counts = Array.from({ length: 31 }, () => 0);
    for (const due of after) counts[dayIndex(due)] = (counts[dayIndex(due)] ?? 0) + 1;
    expect(counts).toEqual(preview.days.map(({ after: count }) => count));
    // Done again, there is nothing left to move.
    expect(await learner.reschedule({})).toEqual({ changed: 0 });
  });
});

describe('rescheduling after new parameters', () => {
  it('works each card’s memory out again from its reviews with the parameters, and brings it due sooner for a forgetful learner', async () => {
    const user = learnerId('refitted');
    const learner = cards.as(user);
    await learner.updateSettings({ fields: ['fuzz'], settings: { fuzz: false } });
    await learner.createCards({ cards: Array.from({ length: 4 }, (_, n) => ({ front: `Q${n}`, back: 'A' })) });
    for (const item of (await learner.listDue()).items) {
      await learner.review({ id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1000 });
    }
    const memories = async () =>
      (
        await cards.pool.query<{ stability: number; due: Date }>(
          'SELECT stability, due FROM review_items WHERE owner_id = $1 ORDER BY id',
          [user],
        )
      ).rows;
    const before = await memories();
    // The parameters of a learner who forgets faster are adopted (as an optimization would).
    await cards.pool.query('UPDATE presets SET parameters = $2 WHERE owner_id = $1 AND is_default', [
      user,
      FORGETFUL_PARAMETERS,
    ]);
    const preview = await learner.previewReschedule({});
    expect(preview.changed).toBe(4);
    expect(await learner.reschedule({})).toEqual({ changed: 4 });
    const after = await memories();
    for (const [n, memory] of after.entries()) {
      // Easy on a new card: about 8.3 days of stability with the defaults, about 2.9 with these parameters.
      expect(memory.stability).toBeCloseTo(FORGETFUL_PARAMETERS[3] as number, 5);
      expect(memory.stability).toBeLessThan(before[n]?.stability ?? 0);
      expect(memory.due.getTime()).toBeLessThan(before[n]?.due.getTime() ?? 0);
    }
    expect(await learner.previewReschedule({})).toMatchObject({ changed: 0 });
  });
});

describe('daily limits', () => {
  /** Makes the learner's first `count` new items reviews that fell due yesterday. */
  const makeReviewsDue = (user: string, count: number) =>
    cards.pool.query(
      `UPDATE review_items SET state = 2, stability = 5, difficulty = 5, reps = 1, scheduled_days = 5,
         last_review = now() - interval '6 days', due = now() - interval '1 day'
       WHERE id IN (SELECT id FROM review_items WHERE owner_id = $1 AND state = 0 ORDER BY due, id LIMIT $2)`,
      [user, count],
    );
  const states = async (learner: Learner) => (await learner.listDue()).items.map(({ state }) => state);

  it('offers each day only as many new cards and reviews as the preset allows, the earliest first', async () => {
    const user = learnerId('limited');
    const learner = cards.as(user);
    await learner.updateSettings({ fields: ['day_start_hour'], settings: { dayStartHour: dayStartHalfADayAway() } });
    // One at a time, so each is due (new) a moment after the one before.
    for (let n = 0; n < 8; n += 1) await learner.createCard({ front: `Q${n}`, back: 'A' });
    await makeReviewsDue(user, 4);
    await learner.updatePreset({
      fields: ['new_per_day', 'reviews_per_day'],
      preset: { newPerDay: 2, reviewsPerDay: 3 },
    });
    expect(await states(learner)).toEqual(['review', 'review', 'review', 'new', 'new']);
    // The dashboard counts what the due list offers today.
    expect((await learner.progressMetrics({})).dueToday).toBe(5);
    const [first] = (await learner.listDue()).items.filter(({ state }) => state === 'new');
    expect(first?.front).toBe('Q4');

    // A new card started today counts: one new card is left, and the learning step it took is never held back.
    await learner.review({ id: first?.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 });
    const review = (await learner.listDue()).items.find(({ state }) => state === 'review');
    await learner.review({ id: review?.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 });
    const after = (await learner.listDue()).items;
    expect(after.map(({ state }) => state)).toEqual(['review', 'review', 'new', 'learning']);
    expect((await learner.progressMetrics({})).dueToday).toBe(4);
    // What the limit held back comes next, in order.
    expect(after.find(({ state }) => state === 'new')?.front).toBe('Q5');
  });

  it('holds the cards of a tag’s preset to that preset’s limits', async () => {
    const { learner, tagId } = await learnerWithTag('limited-tag', 'Kanji');
    for (let n = 0; n < 3; n += 1) await learner.createCard({ front: `Kanji ${n}`, back: 'A', tagIds: [tagId] });
    for (let n = 0; n < 3; n += 1) await learner.createCard({ front: `Plain ${n}`, back: 'A' });
    await learner.createPreset({
      fields: ['name', 'tag_ids', 'new_per_day'],
      preset: { name: 'Kanji', tagIds: [tagId], newPerDay: 1 },
    });
    const fronts = (await learner.listDue()).items.map(({ front }) => front);
    expect(fronts.filter((front) => front.startsWith('Kanji'))).toEqual(['Kanji 0']);
    expect(fronts.filter((front) => front.startsWith('Plain'))).toHaveLength(3);
  });
});
