// The events the cards service takes part in, as runService wires them: it publishes its outbox
// (CardCreated, ReviewRecorded, ReviewRestated, ReviewUndone), keeps subscribers' copies of the organizations'
// shared decks (DeckCardPublished, DeckCardWithdrawn, DeckSubscribed, DeckUnsubscribed), erases a deleted
// user's data (UserDeleted) and counts its own ReviewRecorded toward learners' automatic optimizations. Beside the
// outbox, the pruner forgets create calls' idempotency keys (create_requests) after their retention.
import {
  DeckCardPublished,
  DeckCardWithdrawn,
  DeckSubscribed,
  DeckUnsubscribed,
  ReviewRecorded,
  UserDeleted,
} from '@engram/contracts/events';
import { prismaTransactions } from '@engram/kit/events/apply-once';
import type { RetainedRecords } from '@engram/kit/events/outbox-prune';
import type { EventsDeclaration } from '@engram/kit/events/runtime';
import { on } from '@engram/kit/events/subscriptions';
import type { EventEnvelope } from '@engram/proto/events/v1/envelope';
import type { Config } from '../config.js';
import type { Db } from '../db.js';
import type { Prisma } from '../generated/prisma/client.js';
import { countReviewForOptimizer } from './auto-optimize.js';
import { eraseUser } from './erase-user.js';
import { onDeckCardPublished, onDeckCardWithdrawn, onDeckSubscribed, onDeckUnsubscribed } from './shared-decks.js';

type Tx = Prisma.TransactionClient;

/** When the publisher committed the event; one without (never written by kit) loses to any that has it. */
const occurredAt = (envelope: EventEnvelope) => envelope.occurredAt ?? new Date(0);

/** The records cards keeps only for a while: create calls' idempotency keys, by when they were made. */
export const retainedRecords = (config: Pick<Config, 'IDEMPOTENCY_RETENTION_HOURS'>): RetainedRecords[] => [
  { table: 'create_requests', column: 'created_at', retentionMs: config.IDEMPOTENCY_RETENTION_HOURS * 3_600_000 },
];

export function cardsEvents(
  db: Db,
  config: Pick<Config, 'IDEMPOTENCY_RETENTION_HOURS' | 'OPTIMIZE_EVERY_REVIEWS'>,
): EventsDeclaration<Tx> {
  return {
    relay: true,
    records: retainedRecords(config),
    transactions: prismaTransactions(db),
    consumers: [
      {
        purpose: 'erase-user',
        subscriptions: [on(UserDeleted, (payload, { tx }) => eraseUser(tx, payload.userId))],
      },
      // One consumer per aggregate (kit's consumerFilter makes each a single wildcard subject, which NATS
      // before 2.10 accepts): a deck card's publications and withdrawals, and a deck's subscriptions. The
      // handlers do not rely on the order anyway (events/shared-decks.ts).
      {
        purpose: 'deck-cards',
        subscriptions: [
          on(DeckCardPublished, (payload, { tx }) => onDeckCardPublished(tx, payload)),
          on(DeckCardWithdrawn, (payload, { tx }) => onDeckCardWithdrawn(tx, payload)),
        ],
      },
      {
        purpose: 'auto-optimize',
        subscriptions: [
          on(ReviewRecorded, async (payload, { tx }) => {
            await countReviewForOptimizer(tx, payload, config.OPTIMIZE_EVERY_REVIEWS);
          }),
        ],
      },
      {
        purpose: 'deck-subscriptions',
        subscriptions: [
          on(DeckSubscribed, (payload, { tx, envelope }) => onDeckSubscribed(tx, payload, occurredAt(envelope))),
          on(DeckUnsubscribed, (payload, { tx, envelope }) => onDeckUnsubscribed(tx, payload, occurredAt(envelope))),
        ],
      },
    ],
  };
}
