// The events the cards service takes part in, as runService wires them: it publishes its outbox
// (CardCreated, ReviewRecorded, ReviewUndone) and erases a deleted user's data (UserDeleted).
import { UserDeleted } from '@engram/contracts/events';
import { prismaTransactions } from '@engram/kit/events/apply-once';
import type { EventsDeclaration } from '@engram/kit/events/runtime';
import { on } from '@engram/kit/events/subscriptions';
import type { Db } from '../db.js';
import type { Prisma } from '../generated/prisma/client.js';
import { eraseUser } from './erase-user.js';

export function cardsEvents(db: Db): EventsDeclaration<Prisma.TransactionClient> {
  return {
    relay: true,
    transactions: prismaTransactions(db),
    consumers: [
      {
        purpose: 'erase-user',
        subscriptions: [on(UserDeleted, (payload, { tx }) => eraseUser(tx, payload.userId))],
      },
    ],
  };
}
