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
import { on } from '@engram/kit/events/subscriptions';
import type { Db } from '../db.js';
import type { Prisma } from '../generated/prisma/client.js';
import { eraseUser } from './erase-user.js';
import { onDeckCardPublished, onDeckCardWithdrawn, onDeckSubscribed, onDeckUnsubscribed } from './shared-decks.js';

export function cardsEvents(db: Db): EventsDeclaration<Prisma.TransactionClient> {
  return {
    relay: true,
    transactions: prismaTransactions(db),
    consumers: [
      {
        purpose: 'erase-user',
        subscriptions: [on(UserDeleted, (payload, { tx }) => eraseUser(tx, payload.userId))],
      },
      {
        // One consumer for the four, so one deck's events arrive in the order organizations published them.
        purpose: 'shared-decks',
        subscriptions: [
          on(DeckCardPublished, (payload, { tx }) => onDeckCardPublished(tx, payload)),
          on(DeckCardWithdrawn, (payload, { tx }) => onDeckCardWithdrawn(tx, payload)),
          on(DeckSubscribed, (payload, { tx }) => onDeckSubscribed(tx, payload)),
          on(DeckUnsubscribed, (payload, { tx }) => onDeckUnsubscribed(tx, payload)),
        ],
      },
    ],
  };
}
