// The events the cards service takes part in, as runService wires them: it publishes its outbox
// (CardCreated, ReviewRecorded, ReviewUndone), keeps subscribers' copies of the organizations' shared
// decks (DeckCardPublished, DeckCardWithdrawn, DeckSubscribed, DeckUnsubscribed) and erases a deleted
// user's data (UserDeleted).
import {
  DeckCardPublished,
  DeckCardWithdrawn,
  DeckSubscribed,
  DeckUnsubscribed,
  UserDeleted,
} from '@engram/contracts/events';
import { prismaTransactions } from '@engram/kit/events/apply-once';
import type { EventsDeclaration } from '@engram/kit/events/runtime';
import { on, type Subscription } from '@engram/kit/events/subscriptions';
import type { EventEnvelope } from '@engram/proto/events/v1/envelope';
import type { Db } from '../db.js';
import type { Prisma } from '../generated/prisma/client.js';
import { eraseUser } from './erase-user.js';
import { onDeckCardPublished, onDeckCardWithdrawn, onDeckSubscribed, onDeckUnsubscribed } from './shared-decks.js';

type Tx = Prisma.TransactionClient;

const deckConsumer = (purpose: string, subscription: Subscription<Tx>) => ({ purpose, subscriptions: [subscription] });

/** When the publisher committed the event; one without (never written by kit) loses to any that has it. */
const occurredAt = (envelope: EventEnvelope) => envelope.occurredAt ?? new Date(0);

export function cardsEvents(db: Db): EventsDeclaration<Tx> {
  return {
    relay: true,
    transactions: prismaTransactions(db),
    consumers: [
      {
        purpose: 'erase-user',
        subscriptions: [on(UserDeleted, (payload, { tx }) => eraseUser(tx, payload.userId))],
      },
      // One consumer per event: NATS before 2.10 filters a consumer on one subject only. Their order
      // does not matter (events/shared-decks.ts).
      deckConsumer(
        'deck-card-published',
        on(DeckCardPublished, (payload, { tx }) => onDeckCardPublished(tx, payload)),
      ),
      deckConsumer(
        'deck-card-withdrawn',
        on(DeckCardWithdrawn, (payload, { tx }) => onDeckCardWithdrawn(tx, payload)),
      ),
      deckConsumer(
        'deck-subscribed',
        on(DeckSubscribed, (payload, { tx, envelope }) => onDeckSubscribed(tx, payload, occurredAt(envelope))),
      ),
      deckConsumer(
        'deck-unsubscribed',
        on(DeckUnsubscribed, (payload, { tx, envelope }) => onDeckUnsubscribed(tx, payload, occurredAt(envelope))),
      ),
    ],
  };
}
