// Creating cards is safe to retry: a repeat with the same idempotency key returns what the first call
// created (one card, one event), the same key with other content is refused, and keys are per user. Keys
// are remembered for IDEMPOTENCY_RETENTION_HOURS, then a clean-up pass beside the outbox forgets them.
import { randomUUID } from 'node:crypto';
import { pruneEvents } from '@engram/kit/events/outbox-prune';
import { grpcFailure } from '@engram/testkit/grpc';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retainedRecords } from '../../src/events/index.js';
import { type CardsHarness, HARNESS_CONFIG, startCardsHarness } from '../harness.js';

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

describe('idempotency keys', () => {
  const keysOf = async (user: string) =>
    (await cards.db.createRequest.findMany({ where: { ownerId: user }, select: { key: true } })).map((row) => row.key);

  it('are forgotten by a clean-up pass once older than the retention, while fresh ones still answer retries', async () => {
    const { user, calls } = learner('forget');
    const stale = randomUUID();
    const fresh = randomUUID();
    await calls.createCard({ front: 'long ago', back: 'old', idempotencyKey: stale });
    const kept = await calls.createCard({ front: 'just now', back: 'new', idempotencyKey: fresh });
    const retention = HARNESS_CONFIG.IDEMPOTENCY_RETENTION_HOURS;
    await cards.pool.query(
      `UPDATE create_requests SET created_at = now() - make_interval(hours => $2 + 1) WHERE owner_id = $1 AND key = $3`,
      [user, retention, stale],
    );

    const pass = await pruneEvents(cards.pool, { records: retainedRecords(HARNESS_CONFIG) });

    expect(pass).toMatchObject({ records: 1, lockHeld: true });
    expect(await keysOf(user)).toEqual([fresh]);
    const retried = await calls.createCard({ front: 'just now', back: 'new', idempotencyKey: fresh });
    expect(retried.card!.id).toBe(kept.card!.id);
    // The cards themselves stay: only the record of the call goes.
    expect(await countsOf(user)).toBe(2);
  });

  it('are kept as long as IDEMPOTENCY_RETENTION_HOURS says', async () => {
    const { user, calls } = learner('week');
    const key = randomUUID();
    await calls.createCard({ front: 'a few days ago', back: 'x', idempotencyKey: key });
    await cards.pool.query(
      `UPDATE create_requests SET created_at = now() - interval '3 days' WHERE owner_id = $1 AND key = $2`,
      [user, key],
    );

    await pruneEvents(cards.pool, { records: retainedRecords({ IDEMPOTENCY_RETENTION_HOURS: 7 * 24 }) });
    expect(await keysOf(user)).toEqual([key]);
    await pruneEvents(cards.pool, { records: retainedRecords({ IDEMPOTENCY_RETENTION_HOURS: 48 }) });
    expect(await keysOf(user)).toEqual([]);
  });
});
