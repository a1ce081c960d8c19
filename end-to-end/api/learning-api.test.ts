// The learning loop through the real gateway: onboarding, cards with tags, practice with retried and
// undone reviews, the dashboard's batched load, and personal scheduling's presets and optimizations — as the
// web app calls it.
import { randomUUID } from 'node:crypto';
import { memoryToJson } from '@engram/contracts/memory-state';
import { progressOnDevice, streakOnDevice } from '@engram/contracts/offline-dashboard';
import { type DeviceState, dueToday, reviewOnDevice } from '@engram/contracts/offline-practice';
import { RECOMMENDATION_MIN_CARDS } from '@engram/contracts/scheduling';
import { sharedTestStack } from '@engram/testkit/shared-stack';
import { signUpThroughGateway, type TestStack } from '@engram/testkit/stack';
import { BACKGROUND_JOB_WAIT_MS, waitUntil } from '@engram/testkit/wait';
import { beforeAll, describe, expect, it } from 'vitest';
import { cardsMadeEarlier } from '../support/auth-client.ts';
import { type Json, trpcClient } from '../support/trpc-client.ts';

let stack: TestStack;

beforeAll(async () => {
  stack = await sharedTestStack();
});

const signUp = (name: string) => signUpThroughGateway(stack.url, name);

const client = (cookie: string) => trpcClient(stack.url, cookie);

describe('the learning loop through the gateway', () => {
  it('onboards a learner: settings saved and the session says onboarded', async () => {
    const cookie = await signUp('onboarding');
    const api = client(cookie);
    const before: Json = await (await fetch(`${stack.url}/api/auth/get-session`, { headers: { cookie } })).json();
    expect(before.user.onboardedAt ?? null).toBeNull();
    const { onboardedAt } = await api.mutate('settings.completeOnboarding', {
      timezone: 'America/Sao_Paulo',
      dailyGoal: 15,
    });
    expect(new Date(onboardedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(await api.query('settings.getTimezone')).toEqual({ timezone: 'America/Sao_Paulo' });
    expect((await api.query('settings.get')).dailyGoal).toBe(15);
    const after: Json = await (await fetch(`${stack.url}/api/auth/get-session`, { headers: { cookie } })).json();
    expect(after.user.onboardedAt).toBe(onboardedAt);
  });

  it('refuses onboarding with an unknown timezone, with the reason', async () => {
    const api = client(await signUp('bad-tz'));
    await expect(api.mutate('settings.completeOnboarding', { timezone: 'Nowhere/Land' })).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });

  it('practises tagged cards: a retried review counts once, an undone one not at all', async () => {
    const api = client(await signUp('practice'));
    const tag = await api.mutate('cards.createTag', { name: 'German' });
    await api.mutate('cards.create', { front: 'dog', back: 'Hund', type: 'reversed', tagIds: [tag.id] });
    await api.mutate('cards.create', { front: 'untagged', back: 'x' });
    const { items } = await api.query('cards.listDue', { tagIds: [tag.id] });
    expect(items.map((item: Json) => item.front).sort()).toEqual(['Hund', 'dog']);

    const review = { id: items[0].id, rating: 'good', reviewId: randomUUID(), durationMs: 3000 };
    const first = await api.mutate('cards.review', review);
    expect(await api.mutate('cards.review', review)).toEqual(first);
    const undone = { id: items[1].id, rating: 'again', reviewId: randomUUID(), durationMs: 2000 };
    await api.mutate('cards.review', undone);
    await api.mutate('cards.undoReview', { reviewId: undone.reviewId });

    const [progress, streak, metrics, timezone, list] = await api.batch(
      ['cards.progressMetrics', 'cards.streak', 'cards.reviewMetrics', 'settings.getTimezone', 'cards.list'],
      { 4: { pageSize: 10, archived: false, cursor: null } },
    );
    expect(progress).toMatchObject({ total: 2, reviewedToday: 1, learning: 1, new: 2 });
    expect(streak).toEqual({ current: 1, longest: 1, reviewedToday: true });
    expect(metrics.days.at(-1)).toMatchObject({ reviews: 1, good: 1, again: 0 });
    // New cards' first reviews: no week has true retention yet, beside the desired retention it aims at.
    expect(metrics.retentionWeeks).toHaveLength(26);
    expect(metrics.retentionWeeks.every((week: Json) => week.mature === 0)).toBe(true);
    expect(metrics.desiredRetention).toBe(0.9);
    expect(timezone).toEqual({ timezone: 'UTC' });
    expect(list.items).toHaveLength(2);
  });

  it('answers 409 to a review id sent again with another rating, and the review itself still answers', async () => {
    const api = client(await signUp('reused-review-id'));
    await api.mutate('cards.create', { front: 'rated once', back: 'only' });
    const [item] = (await api.query('cards.listDue')).items;
    const review = { id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 1000 };
    const first = await api.mutate('cards.review', review);
    await expect(api.mutate('cards.review', { ...review, rating: 'again' })).rejects.toMatchObject({
      message: 'This review id was already used for another review.',
      data: { code: 'CONFLICT', httpStatus: 409, reason: 'REVIEW_ID_REUSED' },
    });
    expect(await api.mutate('cards.review', review)).toEqual(first);
    expect(await api.query('cards.progressMetrics')).toMatchObject({ reviewedToday: 1, learning: 1 });
  });

  it("never lets one learner review, undo or edit another's cards", async () => {
    const owner = client(await signUp('owner'));
    const card = await owner.mutate('cards.create', { front: 'mine', back: 'only' });
    const [item] = (await owner.query('cards.listDue')).items;
    const reviewId = randomUUID();
    await owner.mutate('cards.review', { id: item.id, rating: 'good', reviewId, durationMs: 1 });

    const intruder = client(await signUp('intruder'));
    for (const [path, input] of [
      ['cards.review', { id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1 }],
      ['cards.undoReview', { reviewId }],
      ['cards.update', { id: card.id, front: 'stolen' }],
      ['cards.archive', { id: card.id, archived: true }],
      ['cards.delete', { id: card.id }],
    ] as const) {
      await expect(intruder.mutate(path, input)).rejects.toMatchObject({ data: { code: 'NOT_FOUND' } });
    }
    expect((await owner.query('cards.list', {})).items[0]).toMatchObject({ front: 'mine', archived: false });
  });

  it('syncs a queue of offline reviews in one call: each recorded once at its time, a resend answered as duplicates', async () => {
    const cookie = await signUp('offline');
    const api = client(cookie);
    // The learner's day starts half a day from now, so reviews of the last hour are all today's.
    await api.mutate('settings.update', { dayStartHour: (new Date().getUTCHours() + 12) % 24 });
    await api.mutate('cards.createMany', {
      cards: [
        { front: 'one', back: '1' },
        { front: 'two', back: '2' },
      ],
    });
    // Made yesterday: reviews of the last hour come after them.
    await cardsMadeEarlier(stack, cookie, 1);
    const items = (await api.query('cards.listDue')).items;
    const reviewedAt = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const reviews = [
      { reviewId: randomUUID(), id: items[0].id, rating: 'good', durationMs: 3000, reviewedAt: reviewedAt(50) },
      { reviewId: randomUUID(), id: items[1].id, rating: 'again', durationMs: 5000, reviewedAt: reviewedAt(40) },
      { reviewId: randomUUID(), id: randomUUID(), rating: 'good', durationMs: 1000, reviewedAt: reviewedAt(30) },
    ];
    const { results } = await api.mutate('cards.syncReviews', { reviews });
    expect(results.map((result: Json) => [result.status, result.reason])).toEqual([
      ['recorded', null],
      ['recorded', null],
      ['conflict', 'ITEM_NOT_FOUND'],
    ]);
    // The item's whole memory state, as a device schedules its next review from it.
    expect(results[0].item).toEqual({
      state: 'learning',
      due: expect.any(String),
      reps: 1,
      lapses: 0,
      stability: expect.any(Number),
      difficulty: expect.any(Number),
      lastReview: reviews[0]?.reviewedAt,
      elapsedDays: 0,
      scheduledDays: 0,
      learningStep: 1,
    });
    const again = await api.mutate('cards.syncReviews', { reviews: reviews.slice(0, 2) });
    expect(again.results.map((result: Json) => result.status)).toEqual(['duplicate', 'duplicate']);
    expect(await api.query('cards.progressMetrics')).toMatchObject({ reviewedToday: 2 });
    await expect(
      api.mutate('cards.syncReviews', { reviews: [{ ...reviews[0], reviewedAt: 'yesterday' }] }),
    ).rejects.toMatchObject({
      data: { code: 'BAD_REQUEST' },
    });
  });

  it('creates a card once when the client resends cards.create with its idempotency key', async () => {
    const api = client(await signUp('resender'));
    const idempotencyKey = randomUUID();
    const first = await api.mutate('cards.create', { front: 'sent twice', back: 'stored once', idempotencyKey });
    const again = await api.mutate('cards.create', { front: 'sent twice', back: 'stored once', idempotencyKey });
    expect(again).toEqual(first);
    const many = { cards: [{ front: 'batch', back: 'once' }], idempotencyKey: randomUUID() };
    const batch = await api.mutate('cards.createMany', many);
    expect(await api.mutate('cards.createMany', many)).toEqual(batch);
    expect((await api.query('cards.list', {})).items).toHaveLength(2);

    await expect(
      api.mutate('cards.create', { front: 'something else', back: 'entirely', idempotencyKey }),
    ).rejects.toMatchObject({ data: { code: 'CONFLICT', reason: 'IDEMPOTENCY_KEY_REUSED' } });
    // Without a key, every call is a new card.
    await api.mutate('cards.create', { front: 'no key', back: 'x' });
    await api.mutate('cards.create', { front: 'no key', back: 'x' });
    expect((await api.query('cards.list', {})).items).toHaveLength(4);
  });
});

describe("a learner's note types through the gateway", () => {
  it('makes a note of their own type, asks each of its templates, and keeps the type theirs', async () => {
    const api = client(await signUp('note-types'));
    await api.mutate('settings.completeOnboarding', { timezone: 'Europe/Lisbon' });
    const type = await api.mutate('cards.createNoteType', {
      name: 'Spelling',
      fields: ['Word', 'Meaning'],
      templates: [
        { name: 'Recognise', front: '{{Word}}', back: '{{Meaning}}' },
        { name: 'Spell', front: '{{Meaning}}\n\n{{type:Word}}', back: '{{type:Word}}' },
      ],
    });
    const card = await api.mutate('cards.create', { noteTypeId: type.id, fields: ['fenêtre', 'window'] });
    expect(card).toMatchObject({ type: 'note', noteTypeId: type.id, fields: ['fenêtre', 'window'], front: 'fenêtre' });
    const { items } = await api.query('cards.listDue', {});
    const byTemplate = items.sort((a: Json, b: Json) => a.ordinal - b.ordinal);
    expect(byTemplate.map((item: Json) => [item.front, item.back, item.typed ?? null])).toEqual([
      ['fenêtre', 'window', null],
      ['window', 'fenêtre', { expected: 'fenêtre', ignoreAccents: false }],
    ]);
    const listed = (await api.query('cards.noteTypes')).items;
    expect(listed.at(-1)).toMatchObject({ id: type.id, name: 'Spelling', stock: false, notes: 1 });
    // Another learner cannot make a note of it.
    const other = client(await signUp('note-types-other'));
    await expect(other.mutate('cards.create', { noteTypeId: type.id, fields: ['a', 'b'] })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    // A template that names no field of the type is refused with the reason.
    await expect(
      api.mutate('cards.createNoteType', {
        name: 'Broken',
        fields: ['Word'],
        templates: [{ name: 'C', front: '{{Wrod}}', back: '' }],
      }),
    ).rejects.toMatchObject({
      message: expect.stringContaining('A template names a field this note type does not have.'),
    });
  });
});

describe('practising on a device without the network', () => {
  const HOUR = 3_600_000;
  const RATINGS = ['again', 'hard', 'good', 'easy'] as const;

  it('offers on the device the due list the server offers, and schedules each review as the server then stores it', async () => {
    const cookie = await signUp('device');
    const api = client(cookie);
    // In Tokyo (UTC+9), a day that starts half a day from now; Saturday lighter, Sunday off, load balancing on.
    const dayStartHour = (new Date().getUTCHours() + 9 + 12) % 24;
    await api.mutate('settings.update', {
      timezone: 'Asia/Tokyo',
      dayStartHour,
      easyDays: [1, 1, 1, 1, 1, 0.5, 0],
      loadBalance: true,
    });
    const tag = await api.mutate('cards.createTag', { name: 'verbs' });
    await api.mutate('cards.createMany', {
      cards: Array.from({ length: 48 }, (_, n) => ({
        front: `Q${n}`,
        back: `A${n}`,
        tagIds: n % 4 === 0 ? [tag.id] : [],
      })),
    });
    await api.mutate('settings.createPreset', {
      name: 'Verbs',
      tagIds: [tag.id],
      desiredRetention: 0.85,
      newPerDay: 3,
      reviewsPerDay: 2,
    });
    await api.mutate('settings.updatePreset', { newPerDay: 5, reviewsPerDay: 9 });
    // A history synced from earlier days: 36 cards (made ten days ago) learned one to eight days ago, some of them
    // forgotten since.
    await cardsMadeEarlier(stack, cookie, 10);
    const items = (await api.query('cards.listDue')).items as Json[];
    const history = (await api.query('cards.offlineSet', {})).items.slice(0, 36) as Json[];
    expect(items.length).toBeGreaterThan(0);
    const past = history.flatMap((item: Json, n: number) => {
      const learned = Date.now() - (1 + (n % 8)) * 24 * HOUR - n * 60_000;
      const steps = [
        { rating: 'good', at: learned },
        { rating: 'good', at: learned + 15 * 60_000 },
      ];
      if (n % 5 === 0) steps.push({ rating: 'again', at: learned + 20 * HOUR });
      return steps.map(({ rating, at }) => ({
        reviewId: randomUUID(),
        id: item.id,
        rating,
        durationMs: 2000,
        reviewedAt: new Date(at).toISOString(),
      }));
    });
    const synced = await api.mutate('cards.syncReviews', { reviews: past });
    expect(synced.results.every((result: Json) => result.status === 'recorded')).toBe(true);

    // The device takes its set, then the network goes.
    let device: DeviceState = {
      settings: await api.query('settings.get'),
      set: await api.query('cards.offlineSet', { horizonDays: 3 }),
      reviews: [],
    };
    const ids = (list: { id: string }[]) => list.map((item) => item.id);
    const offered = dueToday(device, new Date());
    expect(offered.length).toBeGreaterThan(10);
    expect(ids(offered)).toEqual(ids((await api.query('cards.listDue')).items));

    // Twelve ratings on the device, a second apart, each taking the first card the device offers.
    const start = Date.now() - 20_000;
    const done: { review: Json; next: Json }[] = [];
    for (let n = 0; n < 12; n += 1) {
      const at = new Date(start + n * 1000);
      const [item] = dueToday(device, at);
      const rating = RATINGS[n % 4]!;
      const outcome = reviewOnDevice(device, item!, rating, at);
      device = outcome.state;
      const review = { reviewId: randomUUID(), id: item!.id, rating, durationMs: 1500, reviewedAt: at.toISOString() };
      done.push({ review, next: memoryToJson(outcome.next) });
    }
    const { results } = await api.mutate('cards.syncReviews', { reviews: done.map(({ review }) => review) });
    // What the server stored is, field for field, what the device scheduled.
    expect(results.map((result: Json) => result.item)).toEqual(done.map(({ next }) => next));
    const later = new Date();
    expect(ids(dueToday(device, later))).toEqual(ids((await api.query('cards.listDue')).items));
    // The dashboard the device showed offline (its set's progress and streak moved on by its twelve reviews) is the
    // one the server shows now.
    expect(progressOnDevice(device, later)).toEqual(await api.query('cards.progressMetrics'));
    expect(streakOnDevice(device, later)).toEqual(await api.query('cards.streak'));
  });
});

describe('personal scheduling through the gateway', () => {
  it('shows the default preset, optimizes it as a job and says how many more reviews it needs', async () => {
    const api = client(await signUp('optimizer'));
    const settings = await api.query('settings.get');
    expect(settings.presets).toEqual([
      expect.objectContaining({ isDefault: true, name: 'Default', desiredRetention: 0.9, optimizedAt: null }),
    ]);
    expect(settings.presets[0].parameters).toHaveLength(21);

    await api.mutate('cards.create', { front: 'one card', back: 'one review' });
    const [item] = (await api.query('cards.listDue')).items;
    await api.mutate('cards.review', { id: item.id, rating: 'good', reviewId: randomUUID(), durationMs: 3000 });
    const { jobId } = await api.mutate('settings.optimize', {});
    let optimization: Json = {};
    await waitUntil(
      'the optimization finished',
      async () => {
        optimization = await api.query('settings.optimization', { jobId });
        return optimization.status === 'done';
      },
      BACKGROUND_JOB_WAIT_MS,
    );
    expect(optimization).toMatchObject({
      id: jobId,
      status: 'done',
      outcome: 'too-few-reviews',
      reviews: 0,
      needed: 400,
      evaluation: null,
    });
    const [preset] = (await api.query('settings.get')).presets;
    expect(preset.id).toBe(optimization.presetId);
    expect(preset.optimizedAt).toBeNull();
  });

  it('reschedules a preset’s cards only when asked, as its preview said', async () => {
    const api = client(await signUp('rescheduling'));
    await api.mutate('cards.createMany', {
      cards: Array.from({ length: 6 }, (_, n) => ({ front: `Q${n}`, back: `A${n}` })),
    });
    // Easy graduates a new card: six cards in review.
    for (const item of (await api.query('cards.listDue')).items)
      await api.mutate('cards.review', { id: item.id, rating: 'easy', reviewId: randomUUID(), durationMs: 2000 });
    expect(await api.query('settings.previewReschedule', {})).toMatchObject({ cards: 6, changed: 0 });

    await api.mutate('settings.updatePreset', { desiredRetention: 0.8 });
    // A lower retention spaces them further; nothing has moved yet.
    const preview = await api.query('settings.previewReschedule', {});
    expect(preview).toMatchObject({ cards: 6, changed: 6 });
    expect(await api.mutate('settings.reschedule', {})).toEqual({ changed: 6 });
    expect(await api.query('settings.previewReschedule', {})).toMatchObject({ cards: 6, changed: 0 });
  });

  it('simulates the learner’s cards at several retentions, and recommends none for a few cards', async () => {
    const api = client(await signUp('simulator'));
    await api.mutate('cards.createMany', {
      cards: Array.from({ length: 30 }, (_, i) => ({ front: `Q${i}`, back: 'A' })),
    });
    const runs = await api.query('settings.simulate', { desiredRetentions: [0.85, 0.95], days: 30 });
    expect(runs.map((run: Json) => run.desiredRetention)).toEqual([0.85, 0.95]);
    expect(runs[0].daily).toHaveLength(30);
    expect(runs[0].daily[0]).toEqual({
      date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      reviews: 20,
      minutes: expect.any(Number),
    });
    // Thirty cards are too few to recommend a retention.
    const advice = await api.query('settings.recommendRetention');
    expect(advice).toMatchObject({
      currentRetention: 0.9,
      desiredRetention: 0.9,
      cardCount: 30,
      cardsNeeded: RECOMMENDATION_MIN_CARDS,
    });
    await expect(api.query('settings.simulate', { desiredRetentions: [0.9], days: 400 })).rejects.toMatchObject({
      message: 'Simulate from 1 to 365 days.',
      data: { code: 'BAD_REQUEST' },
    });
  });

  it("keeps one learner's optimizations from another, and refuses an id that is not one", async () => {
    const mine = client(await signUp('optimizer-me'));
    const theirs = client(await signUp('optimizer-them'));
    const { jobId } = await mine.mutate('settings.optimize', {});
    await expect(theirs.query('settings.optimization', { jobId })).rejects.toMatchObject({
      data: { code: 'NOT_FOUND' },
    });
    await expect(theirs.query('settings.optimization', { jobId: 'x' })).rejects.toMatchObject({
      message: 'The optimization is not valid.',
      data: { code: 'BAD_REQUEST' },
    });
  });
});
