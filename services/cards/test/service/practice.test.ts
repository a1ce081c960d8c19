// What is due: review directions of each card type, the order of a session, archived cards and tag
// filters, and edits that keep progress.
import { randomUUID } from 'node:crypto';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, dayStartHalfADayAway, startCardsHarness } from '../harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

const newLearner = (name: string) => cards.as(`${name}-${randomUUID().slice(0, 8)}`);

describe('due items', () => {
  it('asks a reversed card both ways and a cloze card once per deletion', async () => {
    const learner = newLearner('types');
    await learner.createCard({ front: 'dog', back: 'Hund', type: 'reversed' });
    await learner.createCard({ front: '{{c1::Paris}} is the capital of {{c2::France}}', back: '', type: 'cloze' });
    const { items } = await learner.listDue();
    const prompts = items.map((item) => [item.type, item.front, item.back]);
    expect(prompts).toEqual(
      expect.arrayContaining([
        ['reversed', 'dog', 'Hund'],
        ['reversed', 'Hund', 'dog'],
        ['cloze', '[…] is the capital of France', '**Paris** is the capital of France'],
        ['cloze', 'Paris is the capital of […]', 'Paris is the capital of **France**'],
      ]),
    );
    expect(items).toHaveLength(4);
    expect(items.every((item) => item.state === 'new')).toBe(true);
  });

  it('refuses a cloze card without a deletion, with the reason, and stores nothing', async () => {
    const learner = newLearner('bad-cloze');
    const error = await grpcFailure(learner.createCard({ front: 'no deletion', back: '', type: 'cloze' }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toBe('A cloze card needs at least one deletion, like {{c1::answer}}.');
    expect((await learner.listCards()).items).toHaveLength(0);
  });

  it('refuses a deletion numbered 0 or hiding nothing, on create and on edit, and changes nothing', async () => {
    const learner = newLearner('cloze-rule');
    const refusals = [
      ['{{c1::Paris}} is in {{c0::France}}', 'Deletions are numbered from 1, like {{c1::answer}}, not {{c0::answer}}.'],
      ['Paris is in {{c1::}}', 'A deletion needs an answer to hide, like {{c1::answer}}, not {{c1::}}.'],
    ];
    const { card } = await learner.createCard({ front: '{{c1::Paris}} is in France', back: '', type: 'cloze' });
    for (const [front, message] of refusals) {
      const created = await grpcFailure(learner.createCard({ front, back: '', type: 'cloze' }));
      expect([created.code, created.message]).toEqual([status.INVALID_ARGUMENT, message]);
      const edited = await grpcFailure(learner.updateCard({ id: card!.id, fields: ['front'], front }));
      expect([edited.code, edited.message]).toEqual([status.INVALID_ARGUMENT, message]);
    }
    const { items } = await learner.listCards();
    expect(items.map((stored) => stored.front)).toEqual(['{{c1::Paris}} is in France']);
  });

  it('puts learning items first, then new ones, and leaves out archived cards', async () => {
    const learner = newLearner('order');
    await learner.updateSettings({ fields: ['day_start_hour'], settings: { dayStartHour: dayStartHalfADayAway() } });
    const { card: first } = await learner.createCard({ front: 'one', back: '1' });
    await learner.createCard({ front: 'two', back: '2' });
    const { card: archived } = await learner.createCard({ front: 'three', back: '3' });
    await learner.archiveCard({ id: archived!.id, archived: true });
    const due = await learner.listDue();
    expect(due.items.map((item) => item.front).sort()).toEqual(['one', 'two']);
    const itemOfFirst = due.items.find((item) => item.cardId === first!.id)!;
    await learner.review({ id: itemOfFirst.id, rating: 'again', reviewId: randomUUID(), durationMs: 1 });
    // "again" brings it back in a minute: still today, after the items due now.
    const after = await learner.listDue();
    expect(after.items.map((item) => item.front)).toEqual(['two', 'one']);
  });

  it('ranks what is due now by state (learning and relearning, review, new), each by due time, then what falls due later today, and keeps the first 500', async () => {
    const learner = newLearner('rank');
    await learner.updateSettings({ fields: ['day_start_hour'], settings: { dayStartHour: dayStartHalfADayAway() } });
    // No daily limit holds any of them back.
    await learner.updatePreset({ fields: ['new_per_day'], preset: { newPerDay: 9999 } });
    const { cards: created } = await learner.createCards({
      cards: Array.from({ length: 500 }, (_, i) => ({ front: `new ${String(i).padStart(3, '0')}`, back: 'n' })),
    });
    const { cards: more } = await learner.createCards({
      cards: ['review late', 'review early', 'learning', 'relearning', 'later review', 'later learning'].map(
        (front) => ({ front, back: 'x' }),
      ),
    });
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000);
    const states: Record<string, { state: number; due: Date }> = {
      'review late': { state: 2, due: ago(5) },
      'review early': { state: 2, due: ago(50) },
      learning: { state: 1, due: ago(1) },
      relearning: { state: 3, due: ago(2) },
      'later review': { state: 2, due: ago(-2) },
      'later learning': { state: 1, due: ago(-3) },
    };
    for (const card of more) {
      await cards.db.reviewItem.updateMany({ where: { cardId: card.id }, data: states[card.front]! });
    }
    // The new cards fall due in the order they were made, before any of the others was.
    for (const [index, card] of created.entries()) {
      await cards.db.reviewItem.updateMany({ where: { cardId: card.id }, data: { due: ago(1000 - index) } });
    }
    const due = (await learner.listDue()).items.map((item) => item.front);
    expect(due).toHaveLength(500);
    expect(due.slice(0, 5)).toEqual(['relearning', 'learning', 'review early', 'review late', 'new 000']);
    expect(due.at(-1)).toBe('new 495');
    // With fewer new cards, the ones due later today come last: learning steps, then reviews.
    for (const card of created.slice(0, 10)) await learner.archiveCard({ id: card.id, archived: true });
    const rest = (await learner.listDue()).items.map((item) => item.front);
    expect(rest.slice(-3)).toEqual(['new 499', 'later learning', 'later review']);
  });

  it('keeps an archived card out when it is edited, and brings every direction back when it is restored', async () => {
    const learner = newLearner('archived-edit');
    const { card } = await learner.createCard({ front: '{{c1::a}}', type: 'cloze', back: '' });
    await learner.archiveCard({ id: card!.id, archived: true });
    // The edit adds a deletion: its new item belongs to an archived card too.
    await learner.updateCard({ id: card!.id, fields: ['front'], front: '{{c1::a}} {{c2::b}}' });
    expect((await learner.listDue()).items).toHaveLength(0);
    expect((await learner.progressMetrics()).total).toBe(0);
    await learner.archiveCard({ id: card!.id, archived: false });
    expect((await learner.listDue()).items.map((item) => item.ordinal).sort()).toEqual([1, 2]);
    expect((await learner.progressMetrics()).total).toBe(1);
  });

  it('filters by tags: an item is due in a session when its card has one of the chosen tags', async () => {
    const learner = newLearner('tags');
    const { tag: spanish } = await learner.createTag({ name: 'Spanish' });
    const { tag: math } = await learner.createTag({ name: 'Math' });
    await learner.createCard({ front: 'hola', back: 'hello', tagIds: [spanish!.id] });
    await learner.createCard({ front: '1+1', back: '2', tagIds: [math!.id] });
    await learner.createCard({ front: 'untagged', back: 'x' });
    const spanishOnly = await learner.listDue({ tagIds: [spanish!.id] });
    expect(spanishOnly.items.map((item) => item.front)).toEqual(['hola']);
    expect(spanishOnly.items[0]?.tags).toEqual([{ id: spanish!.id, name: 'Spanish' }]);
    const both = await learner.listDue({ tagIds: [spanish!.id, math!.id] });
    expect(both.items.map((item) => item.front).sort()).toEqual(['1+1', 'hola']);
  });

  it("never shows another learner's items, even filtered by their tag", async () => {
    const owner = newLearner('owner');
    const { tag } = await owner.createTag({ name: 'private' });
    await owner.createCard({ front: 'secret', back: 's', tagIds: [tag!.id] });
    const other = newLearner('other');
    expect((await other.listDue()).items).toEqual([]);
    expect((await other.listDue({ tagIds: [tag!.id] })).items).toEqual([]);
  });
});

describe('editing a card', () => {
  it('keeps the progress of the deletions a cloze still has, and adds the new ones as new', async () => {
    const learner = newLearner('edit-cloze');
    const { card } = await learner.createCard({ front: '{{c1::a}} and {{c2::b}}', back: '', type: 'cloze' });
    const c1 = (await learner.listDue()).items.find((item) => item.ordinal === 1);
    await learner.review({ id: c1!.id, rating: 'easy', reviewId: randomUUID(), durationMs: 1 });
    await learner.updateCard({ id: card!.id, fields: ['front'], front: '{{c1::a}} and {{c3::c}}' });
    const items = await cards.db.reviewItem.findMany({ where: { cardId: card!.id }, orderBy: { ordinal: 'asc' } });
    expect(items.map((item) => [item.ordinal, item.reps])).toEqual([
      [1, 1],
      [3, 0],
    ]);
  });

  it('changes only the named fields, and refuses a card that is not the caller’s', async () => {
    const learner = newLearner('edit');
    const { card } = await learner.createCard({ front: 'old front', back: 'old back' });
    const { card: edited } = await learner.updateCard({ id: card!.id, fields: ['back'], back: 'new back' });
    expect(edited).toMatchObject({ front: 'old front', back: 'new back' });
    const error = await grpcFailure(
      newLearner('intruder').updateCard({ id: card!.id, fields: ['front'], front: 'mine now' }),
    );
    expect(error.code).toBe(status.NOT_FOUND);
    expect(error.message).toBe('Card not found.');
  });
});
