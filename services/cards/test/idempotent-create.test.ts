// Creating cards is safe to retry: a repeat with the same idempotency key returns what the first call
// created (one card, one event), the same key with other content is refused, and keys are per user.
import { randomUUID } from 'node:crypto';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CardsHarness, startCardsHarness } from './harness.js';

let cards: CardsHarness;

beforeAll(async () => {
  cards = await startCardsHarness();
});
afterAll(() => cards?.stop());

const learner = (name: string) => {
  const user = `${name}-${randomUUID().slice(0, 8)}`;
  return { user, calls: cards.as(user) };
};

async function countsOf(user: string): Promise<number> {
  return cards.db.card.count({ where: { ownerId: user } });
}

/** CardCreated events in the outbox naming `cardId` (the payload holds it as text). */
async function eventsFor(cardId: string): Promise<number> {
  const { rows } = await cards.pool.query(
    "SELECT count(*)::int AS n FROM outbox_events WHERE position(convert_to($1, 'UTF8') IN payload) > 0",
    [cardId],
  );
  return rows[0].n;
}

describe('CreateCard', () => {
  it('returns the first card when called again with the same key, and creates it once', async () => {
    const { user, calls } = learner('retry');
    const idempotencyKey = randomUUID();
    const first = await calls.createCard({ front: 'Capital of France?', back: 'Paris', idempotencyKey });
    const again = await calls.createCard({ front: 'Capital of France?', back: 'Paris', idempotencyKey });

    expect(again.card).toEqual(first.card);
    expect(await countsOf(user)).toBe(1);
    expect(await eventsFor(first.card!.id)).toBe(1);
  });

  it('creates one card when the same call races itself', async () => {
    const { user, calls } = learner('race');
    const request = { front: 'Racing', back: 'once', idempotencyKey: randomUUID() };
    const answers = await Promise.all(Array.from({ length: 5 }, () => calls.createCard(request)));

    expect(new Set(answers.map((answer) => answer.card!.id)).size).toBe(1);
    expect(await countsOf(user)).toBe(1);
  });

  it('answers ALREADY_EXISTS when the key was used for other content, and creates nothing', async () => {
    const { user, calls } = learner('reuse');
    const idempotencyKey = randomUUID();
    await calls.createCard({ front: 'first', back: 'one', idempotencyKey });

    const error = await grpcFailure(calls.createCard({ front: 'second', back: 'two', idempotencyKey }));

    expect(error.code).toBe(status.ALREADY_EXISTS);
    expect(error.reason).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(error.message).toBe('This idempotency key was already used for a different request.');
    expect(await countsOf(user)).toBe(1);
  });

  it('requires a key', async () => {
    const { user, calls } = learner('keyless');
    const error = await grpcFailure(calls.createCard({ front: 'no key', back: 'x', idempotencyKey: '' }));
    expect(error.code).toBe(status.INVALID_ARGUMENT);
    expect(error.message).toContain('Idempotency key is required.');
    expect(await countsOf(user)).toBe(0);
  });

  it('keeps keys apart per user', async () => {
    const idempotencyKey = randomUUID();
    const ann = learner('ann');
    const bob = learner('bob');
    const a = await ann.calls.createCard({ front: 'same', back: 'key', idempotencyKey });
    const b = await bob.calls.createCard({ front: 'same', back: 'key', idempotencyKey });

    expect(a.card!.id).not.toBe(b.card!.id);
    expect(b.card!.ownerId).toBe(bob.user);
  });
});

describe('CreateCards', () => {
  it('returns the first call’s cards, in order, when called again with the same key', async () => {
    const { user, calls } = learner('batch');
    const request = {
      cards: [
        { front: 'one', back: '1' },
        { front: 'two', back: '2' },
      ],
      idempotencyKey: randomUUID(),
    };
    const first = await calls.createCards(request);
    const again = await calls.createCards(request);

    expect(again.cards.map((card) => card.id)).toEqual(first.cards.map((card) => card.id));
    expect(await countsOf(user)).toBe(2);
  });

  it('refuses a key that a single create already used', async () => {
    const { user, calls } = learner('mixed');
    const idempotencyKey = randomUUID();
    await calls.createCard({ front: 'one', back: '1', idempotencyKey });

    const error = await grpcFailure(calls.createCards({ cards: [{ front: 'one', back: '1' }], idempotencyKey }));

    expect(error.code).toBe(status.ALREADY_EXISTS);
    expect(await countsOf(user)).toBe(1);
  });
});
