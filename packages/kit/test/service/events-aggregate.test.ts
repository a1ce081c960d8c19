// A consumer of several events of one aggregate (`….review.recorded`, `….review.undone`) filters on one
// wildcard subject: NATS before 2.10 accepts it, the events arrive in the order they were published, and
// the aggregate's events the consumer does not handle are acknowledged and skipped, not parked. A
// subscription's `when` lets a consumer skip, without a transaction, the deliveries that do not concern it.
import { randomUUID } from 'node:crypto';
import { ReviewRecorded, ReviewUndone } from '@engram/contracts/events';
import { startConsumer } from '@engram/kit/events/consumer';
import { consumerFilter } from '@engram/kit/events/durable-consumer';
import { enqueueEvent } from '@engram/kit/events/outbox';
import { readOutboxLag } from '@engram/kit/events/outbox-lag';
import { startOutboxRelay } from '@engram/kit/events/relay';
import { on } from '@engram/kit/events/subscriptions';
import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { inTransaction, useEventsFixture, waitUntil } from '../events-fixture.ts';

describe('consumerFilter', () => {
  it('keeps one subject, joins one aggregate’s events into a wildcard, and lists several aggregates', () => {
    expect(consumerFilter(['p.engram.cards.card.created'])).toEqual(['p.engram.cards.card.created']);
    expect(consumerFilter(['p.engram.identity.member.added', 'p.engram.identity.member.removed'])).toEqual([
      'p.engram.identity.member.*',
    ]);
    expect(consumerFilter(['p.engram.identity.member.added', 'p.engram.identity.team-member.added'])).toEqual([
      'p.engram.identity.member.added',
      'p.engram.identity.team-member.added',
    ]);
  });
});

const fixture = useEventsFixture();

/** An event of the review aggregate that the consumer below does not handle. */
const ReviewOther = { subject: 'engram.cards.review.other', message: ReviewUndone.message };

describe('a consumer of one aggregate', () => {
  it('gets its events in the order they were published and skips the ones it does not handle', async () => {
    const reviewId = randomUUID();
    const seen: string[] = [];
    await inTransaction(fixture.pool, async (tx) => {
      await enqueueEvent(tx, ReviewRecorded, {
        reviewId,
        ownerId: 'u',
        cardId: 'c',
        itemId: 'i',
        rating: 'good',
        stateBefore: 'new',
        stateAfter: 'learning',
        reviewedAt: new Date(),
        durationMs: 1,
        due: new Date(),
        lapses: 0,
        deckId: '',
      });
      await enqueueEvent(tx, ReviewOther, { reviewId, ownerId: 'u', itemId: 'i', deckId: '' });
      await enqueueEvent(tx, ReviewUndone, { reviewId, ownerId: 'u', itemId: 'i', deckId: '' });
    });
    const consumer = await startConsumer<pg.PoolClient>({
      ...fixture,
      service: 'organizations',
      purpose: 'reviews',
      subscriptions: [
        on(ReviewRecorded, async () => {
          seen.push('recorded');
        }),
        on(ReviewUndone, async () => {
          seen.push('undone');
        }),
      ],
    });
    const relay = startOutboxRelay({ ...fixture, pollIntervalMs: 200 });
    try {
      await waitUntil('both events are applied', async () => seen.length === 2);
      const info = await fixture.jsm.consumers.info(fixture.streamName, consumer.name);
      expect(info.config.filter_subject).toMatch(/engram\.cards\.review\.\*$/);
      await waitUntil('nothing is left pending', async () => {
        const now = await fixture.jsm.consumers.info(fixture.streamName, consumer.name);
        return now.num_pending === 0 && now.num_ack_pending === 0;
      });
      expect(seen).toEqual(['recorded', 'undone']);
    } finally {
      await relay.stop();
      await consumer.stop();
    }
  });
});

const review = (deckId: string) => ({
  reviewId: randomUUID(),
  ownerId: 'u',
  cardId: 'c',
  itemId: 'i',
  rating: 'good',
  stateBefore: 'new',
  stateAfter: 'learning',
  reviewedAt: new Date(),
  durationMs: 1,
  due: new Date(),
  lapses: 0,
  deckId,
});

describe('a subscription with a condition', () => {
  it('handles the events it accepts and acknowledges the others without recording them', async () => {
    const handled: string[] = [];
    await inTransaction(fixture.pool, async (tx) => {
      await enqueueEvent(tx, ReviewRecorded, review(''));
      await enqueueEvent(tx, ReviewRecorded, review('deck-1'));
      await enqueueEvent(tx, ReviewRecorded, review(''));
    });
    const consumer = await startConsumer<pg.PoolClient>({
      ...fixture,
      service: 'organizations',
      purpose: 'deck-reviews',
      subscriptions: [
        on(
          ReviewRecorded,
          async (payload) => {
            handled.push(payload.deckId);
          },
          { when: (payload) => payload.deckId !== '' },
        ),
      ],
    });
    const relay = startOutboxRelay({ ...fixture, pollIntervalMs: 200 });
    try {
      await waitUntil('every event is settled', async () => {
        if ((await readOutboxLag(fixture.pool)).unpublished > 0) return false;
        const info = await fixture.jsm.consumers.info(fixture.streamName, consumer.name);
        return info.num_pending === 0 && info.num_ack_pending === 0;
      });
      expect(handled).toEqual(['deck-1']);
      expect(await fixture.processedCount(consumer.name)).toBe(1);
    } finally {
      await relay.stop();
      await consumer.stop();
    }
  });
});
